package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.log.LogSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** --auto-promote-learners: who is promoted, when, and that one promotion runs at a time. */
class LearnerPromoterTest {

    /** A leader whose progress the test sets, recording the promotions asked for. */
    private static class RecordingCluster implements LearnerPromoter.Cluster {
        boolean leader = true;
        long commit;
        final Map<Long, Long> learners = new LinkedHashMap<>();
        final List<Long> promoted = new ArrayList<>();
        CompletableFuture<Object> pending = new CompletableFuture<>();

        @Override
        public LearnerPromoter.Progress progress() {
            return leader ? new LearnerPromoter.Progress(commit, new LinkedHashMap<>(learners)) : null;
        }

        @Override
        public CompletableFuture<?> promote(long learner) {
            promoted.add(learner);
            return pending;
        }
    }

    @Test
    void etcdsRuleIsNinetyPercentOfTheLeadersCommit() {
        assertTrue(LearnerPromoter.inSync(90, 100));
        assertFalse(LearnerPromoter.inSync(89, 100));
        assertTrue(LearnerPromoter.inSync(1000, 1000));
    }

    @Test
    void aLearnerIsPromotedOnceItHasCaughtUp() {
        RecordingCluster c = new RecordingCluster();
        LearnerPromoter p = new LearnerPromoter(c, LogSink.stderr());
        c.commit = 1000;
        c.learners.put(0xaL, 500L);
        assertEquals(0, p.check(), "half the log is not in sync");
        c.learners.put(0xaL, 950L);
        assertEquals(0xa, p.check());
        assertEquals(List.of(0xaL), c.promoted);
    }

    @Test
    void aLearnerThatHasReceivedNothingIsNeverPromoted() {
        RecordingCluster c = new RecordingCluster();
        c.commit = 1; // 90% of 1 is 0: etcd's rule alone would accept a match of 0
        c.learners.put(0xbL, 0L);
        assertEquals(0, new LearnerPromoter(c, LogSink.stderr()).check());
        assertTrue(c.promoted.isEmpty());
    }

    @Test
    void onlyTheLeaderPromotes() {
        RecordingCluster c = new RecordingCluster();
        c.leader = false;
        c.commit = 10;
        c.learners.put(0xcL, 10L);
        assertEquals(0, new LearnerPromoter(c, LogSink.stderr()).check());
        assertTrue(c.promoted.isEmpty());
    }

    @Test
    void onePromotionAtATimeAndAFailedOneIsRetried() {
        RecordingCluster c = new RecordingCluster();
        LearnerPromoter p = new LearnerPromoter(c, LogSink.stderr());
        c.commit = 10;
        c.learners.put(0xdL, 10L);
        c.learners.put(0xeL, 10L);
        assertEquals(0xd, p.check());
        assertEquals(0, p.check(), "the first promotion is still in flight");
        CompletableFuture<Object> failed = c.pending;
        c.pending = new CompletableFuture<>();
        failed.completeExceptionally(new IllegalStateException("etcdserver: unhealthy cluster"));
        assertEquals(0xd, p.check(), "retried at the next pass");
        assertEquals(List.of(0xdL, 0xdL), c.promoted);
    }

    @Test
    void aPromotionRefusedAtOnceDoesNotBlockLaterOnes() {
        RecordingCluster c = new RecordingCluster() {
            @Override
            public CompletableFuture<?> promote(long learner) {
                promoted.add(learner);
                throw new IllegalStateException("etcdserver: can only promote a learner member");
            }
        };
        LearnerPromoter p = new LearnerPromoter(c, LogSink.stderr());
        c.commit = 10;
        c.learners.put(0xfL, 10L);
        assertEquals(0xf, p.check());
        assertEquals(0xf, p.check());
        assertEquals(2, c.promoted.size());
    }
}
