package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.FakeHashedCluster.hash;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.server.log.LogSink;
import io.etcdj.server.mvcc.CompactionHashes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * etcd's compaction hash check: the leader compares the hash each compaction recorded with its
 * followers', alarms the members outside the majority (the whole cluster, member 0, when there is
 * none), and does not check a revision twice.
 */
class CompactionHashCheckTest {
    private static final long TIMEOUT = 1000;
    private final LogSink logs = LogSink.to(line -> { });

    @Test
    void aFollowerOutsideTheMajorityIsAlarmed() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.compactions.add(new CompactionHashes.Entry(111, 5, 10));
        c.peer(0xb, 10, hash(30, 5, 111)).peer(0xc, 10, hash(30, 5, 222));
        new CompactionHashCheck(c, logs).run(TIMEOUT);
        assertEquals(List.of(0xcL), c.alarms);
    }

    @Test
    void withoutAMajorityTheWholeClusterIsAlarmed() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.compactions.add(new CompactionHashes.Entry(111, 5, 10));
        c.peer(0xb, 10, hash(30, 5, 222)).peer(0xc, 10, hash(30, 5, 333));
        new CompactionHashCheck(c, logs).run(TIMEOUT);
        assertEquals(List.of(0L), c.alarms, "etcd sets the member ID 0 when it cannot tell who is corrupt");
    }

    @Test
    void aRevisionCheckedOnTheWholeClusterIsNotCheckedAgain() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.compactions.add(new CompactionHashes.Entry(111, 5, 10));
        c.peer(0xb, 10, hash(30, 5, 111));
        CompactionHashCheck check = new CompactionHashCheck(c, logs);
        check.run(TIMEOUT);
        check.run(TIMEOUT);
        assertEquals(List.of("b@10"), c.asked);
        assertEquals(List.of(), c.alarms);
    }

    @Test
    void aFollowerThatCannotAnswerAtTheNewestCompactionIsComparedAtAnOlderOne() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.compactions.add(new CompactionHashes.Entry(444, 20, 40)); // newest first
        c.compactions.add(new CompactionHashes.Entry(111, 5, 10));
        c.peer(0xb, 40, hash(50, 10, 444)); // answered after another compaction: skipped
        c.peer(0xb, 10, hash(50, 5, 999));
        new CompactionHashCheck(c, logs).run(TIMEOUT);
        assertEquals(List.of("b@40", "b@10"), c.asked);
        assertEquals(List.of(0L), c.alarms, "two members, two hashes: no majority");
    }

    @Test
    void onlyTheLeaderChecks() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.leader = false;
        c.compactions.add(new CompactionHashes.Entry(111, 5, 10));
        c.peer(0xb, 10, hash(30, 5, 222));
        new CompactionHashCheck(c, logs).run(TIMEOUT);
        assertEquals(List.of(), c.asked);
    }
}
