package io.etcdj.server.compactor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.server.log.LogSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** etcd's auto-compaction rules, on a fake member and a fake clock. */
class CompactorTest {
    /** A member whose revision and leadership the test sets; it records the compactions asked for. */
    private static final class FakeTarget implements Compactor.Target {
        long revision = 1;
        long compacted;
        boolean leader = true;
        final List<Long> asked = new ArrayList<>();

        @Override
        public long currentRevision() {
            return revision;
        }

        @Override
        public long compactRevision() {
            return compacted;
        }

        @Override
        public boolean isLeader() {
            return leader;
        }

        @Override
        public CompletableFuture<?> compact(long rev) {
            asked.add(rev);
            compacted = rev;
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void periodicCompactsToTheRevisionSeenOneWindowAgo() {
        FakeTarget t = new FakeTarget();
        AtomicLong now = new AtomicLong();
        Compactor c = new Compactor(t, "periodic", "1h", now::get, LogSink.stderr());
        Duration window = Compactor.periodicRetention("1h");
        for (int i = 0; i <= 10; i++) {
            t.revision = 100 + i * 10;
            c.periodic(window);
            now.addAndGet(TimeUnit.MINUTES.toNanos(6));
        }
        assertEquals(List.of(100L), t.asked, "after a full hour, the revision of an hour ago");
        t.revision = 300;
        c.periodic(window);
        assertEquals(List.of(100L, 110L), t.asked);
    }

    @Test
    void revisionModeKeepsTheLastRevisionsAndOnlyTheLeaderCompacts() {
        FakeTarget t = new FakeTarget();
        Compactor c = new Compactor(t, "revision", "1000", () -> 0, LogSink.stderr());
        t.revision = 500;
        c.compactKeeping(1000);
        assertEquals(List.of(), t.asked, "nothing below revision 1 to compact");
        t.revision = 5000;
        t.leader = false;
        c.compactKeeping(1000);
        assertEquals(List.of(), t.asked, "followers never propose compactions");
        t.leader = true;
        c.compactKeeping(1000);
        c.compactKeeping(1000);
        assertEquals(List.of(4000L), t.asked, "the same revision is not compacted twice");
    }

    @Test
    void retentionIsADurationOrHours() {
        assertEquals(Duration.ofMinutes(30), Compactor.periodicRetention("30m"));
        assertEquals(Duration.ofHours(2), Compactor.periodicRetention("2"));
        assertEquals(Duration.ZERO, Compactor.periodicRetention("0"));
    }
}
