package io.etcdj.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.LeaseCheckpoint;
import io.etcdj.api.etcdserverpb.LeaseCheckpointRequest;
import io.etcdj.server.apply.StoreFixture;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lease checkpoints as etcd's lessor makes and applies them (gate LeaseCheckpoint). */
class LessorCheckpointTest {
    private static final long SECOND = 1_000_000_000L;
    @TempDir
    Path dir;
    StoreFixture f;
    /** What the leader's lessor proposed, in order. */
    final List<LeaseCheckpointRequest> proposed = new ArrayList<>();
    boolean persist = true;

    @BeforeEach
    void open() {
        f = new StoreFixture(dir);
        configure();
    }

    private void configure() {
        f.lessor.configureCheckpoints(proposed::add, 10 * SECOND, () -> persist);
    }

    @AfterEach
    void close() {
        f.close();
    }

    /** Proposes what is due and applies it on this member, as Raft would. */
    private List<LeaseCheckpoint> checkpointNow() {
        proposed.clear();
        f.lessor.proposeDueCheckpoints();
        List<LeaseCheckpoint> all = new ArrayList<>();
        for (LeaseCheckpointRequest r : List.copyOf(proposed)) {
            assertNull(f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(r)).error());
            all.addAll(r.getCheckpointsList());
        }
        return all;
    }

    private static LeaseCheckpoint cp(long id, long remaining) {
        return LeaseCheckpoint.newBuilder().setID(id).setRemainingTTL(remaining).build();
    }

    @Test
    void theLeaderCheckpointsLongLeasesEveryIntervalWithTheTtlLeftRoundedUp() {
        f.lessor.promote(0);
        f.grant(7, 100);
        f.grant(8, 10);
        f.nanos.addAndGet(9 * SECOND);
        assertTrue(checkpointNow().isEmpty(), "nothing is due before the interval");
        f.nanos.addAndGet(SECOND + SECOND / 2);
        assertEquals(List.of(cp(7, 90)), checkpointNow(),
                "89.5 s left rounds up to 90; a lease no longer than the interval is never checkpointed");
        assertEquals(90, f.lessor.lookup(7).checkpointedTtlSeconds());
        f.nanos.addAndGet(10 * SECOND);
        assertEquals(List.of(cp(7, 80)), checkpointNow(), "applying a checkpoint schedules the next");
    }

    @Test
    void aNewLeaderCountsFromTheCheckpointNotTheFullTtl() {
        f.lessor.promote(0);
        f.grant(7, 100);
        f.grant(9, 100);
        f.nanos.addAndGet(10 * SECOND);
        f.lessor.proposeDueCheckpoints();
        // only lease 7's checkpoint reaches the log before the leader goes
        LeaseCheckpointRequest only7 = LeaseCheckpointRequest.newBuilder().addAllCheckpoints(
                proposed.get(0).getCheckpointsList().stream().filter(c -> c.getID() == 7).toList()).build();
        f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(only7));
        f.lessor.demote();
        f.nanos.addAndGet(30 * SECOND);
        f.lessor.promote(2 * SECOND);
        assertEquals(92, f.lessor.remainingSeconds(f.lessor.lookup(7)), "checkpointed 90 s plus the promotion's extension");
        assertEquals(102, f.lessor.remainingSeconds(f.lessor.lookup(9)), "without a checkpoint the full TTL is given again");
    }

    @Test
    void aRenewalClearsACheckpointThroughRaft() {
        f.lessor.promote(0);
        f.grant(7, 100);
        f.nanos.addAndGet(10 * SECOND);
        checkpointNow();
        proposed.clear();
        assertEquals(100, f.lessor.renew(7));
        assertEquals(List.of(LeaseCheckpointRequest.newBuilder().addCheckpoints(cp(7, 0)).build()), proposed);
        f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(proposed.get(0)));
        assertEquals(0, f.lessor.lookup(7).checkpointedTtlSeconds());
        proposed.clear();
        f.lessor.renew(7);
        assertTrue(proposed.isEmpty(), "nothing to clear: no entry");
    }

    @Test
    void persistedCheckpointsSurviveARestartOfTheMember() {
        f.lessor.promote(0);
        f.grant(7, 100);
        f.nanos.addAndGet(40 * SECOND);
        f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(LeaseCheckpointRequest.newBuilder().addCheckpoints(cp(7, 60))));
        f.reopen();
        configure();
        assertEquals(60, f.lessor.lookup(7).checkpointedTtlSeconds());
        f.lessor.promote(0);
        assertEquals(60, f.lessor.remainingSeconds(f.lessor.lookup(7)), "the restarted leader does not reset the lease to 100 s");
    }

    @Test
    void withoutPersistenceARestartForgetsTheCheckpoint() {
        persist = false;
        f.lessor.promote(0);
        f.grant(7, 100);
        f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(LeaseCheckpointRequest.newBuilder().addCheckpoints(cp(7, 60))));
        assertEquals(60, f.lessor.lookup(7).checkpointedTtlSeconds(), "applied in memory");
        f.reopen();
        configure();
        assertEquals(0, f.lessor.lookup(7).checkpointedTtlSeconds());
    }

    @Test
    void aFollowerProposesNothingAndUnknownLeasesAreIgnored() {
        f.grant(7, 100);
        f.nanos.addAndGet(60 * SECOND);
        f.lessor.proposeDueCheckpoints();
        assertTrue(proposed.isEmpty());
        assertNull(f.apply(InternalRaftRequest.newBuilder().setLeaseCheckpoint(
                LeaseCheckpointRequest.newBuilder().addCheckpoints(cp(12345, 5)))).error());
    }

    @Test
    void checkpointsGoInEntriesOfAtMostAThousand() {
        f.lessor.promote(0);
        for (long id = 1; id <= 2500; id++) {
            f.grant(id, 100);
        }
        f.nanos.addAndGet(11 * SECOND);
        proposed.clear();
        assertEquals(2500, f.lessor.proposeDueCheckpoints());
        assertEquals(List.of(1000, 1000, 500), proposed.stream().map(LeaseCheckpointRequest::getCheckpointsCount).toList());
    }
}
