package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.FakeHashedCluster.hash;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.log.LogSink;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * etcd's initial corruption check (a member with other data than its peers does not start) and
 * its periodic check (the leader raises the CORRUPT alarm for the member whose hash is off).
 */
class CorruptionCheckTest {
    private static final long TIMEOUT = 1000;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final LogSink logs = LogSink.to(lines::add);

    @Test
    void aPeerWithAnotherHashAtTheSameCompactionStopsTheStart() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(20, 5, 111)).peer(0xc, 20, hash(20, 5, 222));
        IOException e = assertThrows(IOException.class, () -> new CorruptionCheck(c, logs).initial(TIMEOUT));
        assertEquals("a found data inconsistency with peers", e.getMessage(), "etcd's text, with the member ID");
        assertTrue(lines.stream().anyMatch(l -> l.contains("found different hash values from remote peer")
                && l.contains("\"remote-peer-id\":\"c\"")), String.join("\n", lines));
    }

    @Test
    void peersThatCannotAnswerOrCompactedElsewhereDoNotStopTheStart() {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(20, 9, 333)); // compacted further: hashes cover other histories
        assertDoesNotThrow(() -> new CorruptionCheck(c, logs).initial(TIMEOUT));
        assertEquals(List.of("b@20", "c@20"), c.asked, "every peer asked at this member's revision");
        assertTrue(lines.stream().anyMatch(l -> l.contains("cannot fetch hash from remote peer")), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains("initial corruption checking passed")), String.join("\n", lines));
    }

    @Test
    void theLeaderAlarmsAFollowerWithAnotherHashAtItsRevision() throws Exception {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(20, 5, 111)).peer(0xc, 20, hash(20, 5, 222));
        new CorruptionCheck(c, logs).periodic(TIMEOUT);
        assertEquals(List.of(0xcL), c.alarms);
    }

    @Test
    void aFollowerAheadOfTheLeaderIsAlarmed() throws Exception {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(25, 5, 999));
        new CorruptionCheck(c, logs).periodic(TIMEOUT);
        assertEquals(List.of(0xbL), c.alarms, "a follower cannot have revisions its leader has not");
    }

    @Test
    void theLeadersOwnHashChangingAtAnUnchangedRevisionAlarmsTheLeader() throws Exception {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.local.add(hash(20, 5, 111));
        c.local.add(hash(20, 5, 112));
        c.peer(0xb, 20, hash(20, 5, 111));
        new CorruptionCheck(c, logs).periodic(TIMEOUT);
        assertEquals(List.of(0xaL), c.alarms);
    }

    @Test
    void equalHashesAndFollowersMovedOnRaiseNothing() throws Exception {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL, 0xcL);
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(20, 5, 111)); // c does not answer
        new CorruptionCheck(c, logs).periodic(TIMEOUT);
        assertEquals(List.of(), c.alarms);
    }

    @Test
    void onlyTheLeaderChecks() throws Exception {
        FakeHashedCluster c = new FakeHashedCluster(0xa, 0xaL, 0xbL);
        c.leader = false;
        c.local.add(hash(20, 5, 111));
        c.peer(0xb, 20, hash(20, 5, 222));
        new CorruptionCheck(c, logs).periodic(TIMEOUT);
        assertEquals(List.of(), c.asked);
        assertEquals(List.of(), c.alarms);
    }
}
