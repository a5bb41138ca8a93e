package io.etcdj.server.cluster;

import static io.etcdj.server.cluster.InJvmCluster.ELECTION_TICKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.server.api.Caller;
import io.etcdj.server.cluster.InJvmCluster.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Elections, replication, failures, membership and leases on members in one JVM over a simulated
 * network and a manual clock: the real server, WAL, backend and apply path, no sockets, no
 * processes and no sleeps. Time moves when the test says, a heartbeat interval (100 ms, etcd's
 * default; elections after 1 s) per tick, so the cases assert when things happen in simulated
 * time: an election after an election timeout, a lease's expiry after its TTL. The process-level
 * suites (ClusterIT, LeaderRestartIT, robustness) cover what needs real processes: SIGKILL,
 * SIGSTOP, real links.
 */
class InJvmClusterTest {
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(InJvmCluster.HEARTBEAT_MS);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** The leader looks for expired leases every 500 ms. */
    private static final long EXPIRY_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * Election timeouts a test waits for a new leader. Each round takes one to two timeouts and
     * splits with a chance of about 1 in 10 (two members drawing the same timeout), so five rounds
     * that fit in ten timeouts leave a failure to a run of five split votes: about 1 in 100 000.
     */
    private static final int ELECTION_ROUNDS = 10;

    private static PutRequest.Builder putRequest(String key, String value) {
        return PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value));
    }

    private static long put(InJvmCluster c, Node n, String key, String value) throws Exception {
        return c.await(n.server.kv().put(Caller.ANONYMOUS, putRequest(key, value).build())).getHeader().getRevision();
    }

    private static CompletableFuture<RangeResponse> range(Node n, String key, boolean serializable) {
        return n.server.kv().range(Caller.ANONYMOUS, RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                .setSerializable(serializable).build());
    }

    private static String value(InJvmCluster c, Node n, String key) throws Exception {
        RangeResponse r = c.await(range(n, key, false));
        return r.getCount() == 0 ? null : r.getKvs(0).getValue().toStringUtf8();
    }

    /** A serializable read: the member's own state, which needs no time to pass. */
    private static String localValue(Node n, String key) {
        try {
            RangeResponse r = range(n, key, true).get(10, TimeUnit.SECONDS);
            return r.getCount() == 0 ? null : r.getKvs(0).getValue().toStringUtf8();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Node follower(InJvmCluster c, Node leader) {
        return c.nodes().stream().filter(n -> n != leader && n.running()).findFirst().orElseThrow();
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }

    @Test
    void aWriteThroughAnyMemberIsReadLinearizablyOnEvery() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            long rev = put(c, follower(c, leader), "k", "v1");
            for (Node n : c.nodes()) {
                RangeResponse r = c.await(range(n, "k", false));
                assertEquals("v1", r.getKvs(0).getValue().toStringUtf8(), n.name);
                assertEquals(rev, r.getKvs(0).getModRevision(), "the same revision everywhere");
            }
        }
    }

    /**
     * Linearizable reads asked of every member at once are all confirmed in one heartbeat round:
     * each member's ReadIndex request carries a context of its own. With contexts counted from 1
     * on every member, the leader kept the first request of a context and dropped the others, so
     * those reads waited for the retry after an election timeout.
     */
    @Test
    void linearizableReadsAskedOfEveryMemberAtOnceAreConfirmedWithoutARetry() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            c.leader();
            List<CompletableFuture<RangeResponse>> reads = c.nodes().stream().map(n -> range(n, "k", false)).toList();
            int ticks = c.tickAndWaitUntil("every read answered", 2 * ELECTION_TICKS,
                    () -> reads.stream().allMatch(CompletableFuture::isDone));
            assertTrue(ticks <= 1, "answered after " + ticks + " heartbeat intervals, not within one");
            for (Node n : c.nodes()) {
                String text = n.server.metrics().render(n.server.memberStatus().metricsGauges());
                assertEquals(0, sample(text, "etcd_server_slow_read_indexes_total"), n.name);
            }
        }
    }

    /**
     * Three members in one JVM each own their registry: a put asked of one member is counted on
     * that member's /metrics alone, and only the leader says it leads (with one registry per JVM,
     * every member showed the sum of all and the last leader gauge written).
     */
    @Test
    void eachMemberCountsOnlyWhatItDidItself() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node asked = follower(c, leader);
            put(c, asked, "k", "v1");
            put(c, asked, "k", "v2");
            for (Node n : c.nodes()) {
                String text = n.server.metrics().render(n.server.memberStatus().metricsGauges());
                assertEquals(n == asked ? 2 : 0, sample(text, "etcd_mvcc_put_total"), n.name);
                assertEquals(n == leader ? 1 : 0, sample(text, "etcd_server_is_leader"), n.name);
                assertEquals(1, sample(text, "etcd_server_id{server_id=\"" + Long.toHexString(n.id()) + "\"}"), n.name);
            }
        }
    }

    /** The value of the one sample {@code series} in an exposition text. */
    private static double sample(String text, String series) {
        List<String> found = text.lines().filter(l -> l.startsWith(series + " ")).toList();
        assertEquals(1, found.size(), series + " in:\n" + text);
        return Double.parseDouble(found.get(0).substring(series.length() + 1));
    }

    @Test
    void whenTheLeaderStopsAnotherLeadsAfterAnElectionTimeoutAndTheOldOneCatchesUpOnRestart() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node old = c.leader();
            put(c, old, "before", "1");
            old.stop();
            // within some election rounds: the two left may time out in the same tick and split
            // their votes, and each round waits a randomized timeout again (seed -8957469709012925429)
            int ticks = c.tickUntil("a new leader", ELECTION_ROUNDS * ELECTION_TICKS, () -> c.currentLeader() != null);
            // the followers heard the leader in the last tick: none campaigns before its
            // randomized timeout, between one and two election timeouts
            assertTrue(ticks >= ELECTION_TICKS - 1, "elected after " + ticks + " ticks");
            Node next = c.currentLeader();
            assertNotEquals(old, next);
            put(c, next, "after", "2");
            old.start();
            c.tickUntil("the old leader catching up", ELECTION_TICKS,
                    () -> "2".equals(localValue(old, "after")) && "1".equals(localValue(old, "before")));
        }
    }

    @Test
    void anIsolatedFollowerFailsLinearizableReadsWithNoLeaderAndCatchesUpWhenHealed() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node cut = follower(c, leader);
            c.net().isolate(cut.id());
            put(c, leader, "while-cut", "x");
            long asked = c.now();
            ExecutionException e = assertThrows(ExecutionException.class, () -> c.await(range(cut, "while-cut", false)),
                    "a member that cannot reach the leader cannot prove a read is current");
            assertEquals("etcdserver: no leader", rootMessage(e));
            long waited = c.now() - asked;
            // it loses its leader after its election timeout, and a read without a leader fails
            // after two election timeouts (the sweep runs every tick)
            assertTrue(waited >= 2 * SECOND && waited <= 2 * SECOND + 2 * TICK_NANOS, "failed after " + waited + " ns");
            assertNull(localValue(cut, "while-cut"), "a serializable read is local: stale, as documented");
            c.net().heal();
            c.tickUntil("the follower catching up", 2 * ELECTION_TICKS, () -> "x".equals(localValue(cut, "while-cut")));
            assertEquals("x", value(c, cut, "while-cut"));
        }
    }

    @Test
    void aPartitionedLeaderStepsDownAfterAnElectionTimeoutWithoutAQuorumAndTheMajorityGoesOn() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node old = c.leader();
            long term = old.server.memberStatus().term();
            c.net().isolate(old.id());
            int ticks = c.tickUntil("the isolated leader stepping down", 2 * ELECTION_TICKS, () -> !old.server.isLeader());
            // check-quorum: every election timeout the leader steps down unless a quorum was active
            // since the last check; its followers answered the heartbeat of the tick before the cut
            assertTrue(ticks > ELECTION_TICKS, "stepped down after " + ticks + " ticks");
            Node other = follower(c, old);
            // within some election rounds, as when a leader stops: the two followers may time out in
            // the same tick and split their votes, more than once (seed 7155105043515723151: the
            // leader was elected in term 5 in 5 runs of 12)
            c.tickUntil("a leader among the majority", ELECTION_ROUNDS * ELECTION_TICKS, () -> {
                long lead = other.server.memberStatus().status().getLeader();
                return lead != 0 && lead != old.id();
            });
            Node next = c.nodes().stream().filter(n ->
                    n.id() == other.server.memberStatus().status().getLeader()).findFirst().orElseThrow();
            assertTrue(next.server.memberStatus().term() > term, "a new term");
            put(c, next, "majority", "m");
            ExecutionException e = assertThrows(ExecutionException.class, () -> put(c, old, "minority", "lost"),
                    "the cut-off member cannot commit a write");
            assertEquals("etcdserver: no leader", rootMessage(e));
            c.net().heal();
            Node leader = c.leader();
            assertNull(value(c, leader, "minority"), "the refused write never appears");
            assertEquals("m", value(c, old, "majority"));
        }
    }

    @Test
    void preVoteKeepsAnIsolatedMemberFromDisruptingTheClusterWhenItRejoins() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            long term = leader.server.memberStatus().term();
            Node cut = follower(c, leader);
            c.net().isolate(cut.id());
            c.advance(10 * ELECTION_TICKS);
            assertEquals(term, cut.server.memberStatus().term(), "pre-vote: it never wins a pre-vote, so it never raises its term");
            c.net().heal();
            c.advance(ELECTION_TICKS);
            assertEquals(leader, c.currentLeader(), "the same leader");
            assertEquals(term, leader.server.memberStatus().term(), "in the same term");
        }
    }

    @Test
    void withoutPreVoteTheRejoiningMemberForcesANewElection() throws Exception {
        // the control of the case above: the same steps with --pre-vote=false disrupt the cluster
        try (InJvmCluster c = InJvmCluster.start(3, Map.of("pre-vote", "false"))) {
            Node leader = c.leader();
            long term = leader.server.memberStatus().term();
            Node cut = follower(c, leader);
            c.net().isolate(cut.id());
            c.advance(10 * ELECTION_TICKS);
            long raised = cut.server.memberStatus().term();
            assertTrue(raised > term + 4, "it campaigns in a new term every timeout: " + raised);
            c.net().heal();
            Node after = c.leader();
            assertTrue(after.server.memberStatus().term() >= raised,
                    "its higher term deposed the leader: term " + after.server.memberStatus().term());
        }
    }

    @Test
    void aRemovedMemberStopsAndTheOthersGoOn() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node removed = follower(c, leader);
            c.await(leader.server.cluster().remove(removed.id()));
            c.tickAndWaitUntil("the removed member reporting it must stop", 3 * ELECTION_TICKS, () -> removed.fatal);
            removed.stop();
            assertEquals(2, c.await(leader.server.cluster().list(true)).getMembersCount());
            put(c, c.leader(), "after-remove", "ok");
        }
    }

    @Test
    void leasesGrantedAndRenewedThroughAFollower() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node f = follower(c, c.leader());
            long granted = c.now();
            long id = c.await(f.server.leases().grant(Caller.ANONYMOUS, LeaseGrantRequest.newBuilder().setTTL(30).build())).getID();
            c.advance(Duration.ofSeconds(10));
            LeaseTimeToLiveRequest ttl = LeaseTimeToLiveRequest.newBuilder().setID(id).build();
            long left = c.await(f.server.leases().timeToLive(ttl)).getTTL();
            assertEquals((granted + 30 * SECOND - c.now()) / SECOND, left, "10 s of 30 passed, as the leader counts");
            long asked = c.now();
            assertEquals(30, c.await(f.server.leases().keepAlive(id)).getTTL(), "renewed on the leader");
            long renewedBy = c.now();
            long again = c.await(f.server.leases().timeToLive(ttl)).getTTL();
            assertTrue(again >= (asked + 30 * SECOND - c.now()) / SECOND && again <= (renewedBy + 30 * SECOND - c.now()) / SECOND,
                    "a full TTL again from the renewal: " + again);
            assertEquals(0, c.await(f.server.leases().keepAlive(id + 1)).getTTL(), "unknown lease");
        }
    }

    @Test
    void aLeaseExpiresOnceItsTtlHasPassedAndNotBefore() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node f = follower(c, leader);
            long granted = c.now();
            long id = c.await(f.server.leases().grant(Caller.ANONYMOUS, LeaseGrantRequest.newBuilder().setTTL(5).build())).getID();
            c.await(f.server.kv().put(Caller.ANONYMOUS, putRequest("leased", "v").setLease(id).build()));
            c.advance(Duration.ofSeconds(2));
            long left = (granted + 5 * SECOND - c.now()) / SECOND;
            assertEquals(left, c.await(f.server.leases().timeToLive(LeaseTimeToLiveRequest.newBuilder().setID(id).build()))
                    .getTTL(), "seconds left, as the leader counts them");
            c.tickUntil("the leased key deleted", 60, () -> localValue(leader, "leased") == null);
            long lived = c.now() - granted;
            // the leader revokes it at its first expiry check once the TTL has passed
            assertTrue(lived >= 5 * SECOND && lived <= 5 * SECOND + EXPIRY_CHECK_NANOS, "revoked after " + lived + " ns");
            c.settle();
            for (Node n : c.nodes()) {
                assertNull(localValue(n, "leased"), n.name);
            }
            assertEquals(0, c.await(f.server.leases().keepAlive(id)).getTTL(), "the lease is gone");
        }
    }

    @Test
    void aNewLeaderGivesEveryLeaseAFullTtlPlusAnElectionTimeout() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node old = c.leader();
            long id = c.await(old.server.leases().grant(Caller.ANONYMOUS, LeaseGrantRequest.newBuilder().setTTL(5).build())).getID();
            c.await(old.server.kv().put(Caller.ANONYMOUS, putRequest("leased", "v").setLease(id).build()));
            c.advance(Duration.ofSeconds(4));
            old.stop();
            Node next = c.leader();
            long elected = c.now();
            // etcd: "the new leader extends the timeouts" to the election timeout plus the TTL
            long extended = TimeUnit.MILLISECONDS.toNanos(InJvmCluster.ELECTION_MS) + 5 * SECOND;
            c.tickUntil("the leased key deleted", 100, () -> localValue(next, "leased") == null);
            long lived = c.now() - elected;
            assertTrue(lived >= extended && lived <= extended + EXPIRY_CHECK_NANOS,
                    "revoked " + lived + " ns after the new leader was elected");
        }
    }

    @Test
    void aMemberBehindTheCompactedLogCatchesUpFromASnapshot() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3, Map.of("snapshot-count", "20",
                "experimental-snapshot-catchup-entries", "5"))) {
            Node leader = c.leader();
            Node behind = follower(c, leader);
            behind.stop();
            for (int i = 0; i < 60; i++) {
                put(c, leader, "s/" + i, "v" + i);
            }
            behind.start();
            c.tickUntil("the restarted member catching up", 3 * ELECTION_TICKS,
                    () -> "v59".equals(localValue(behind, "s/59")) && "v0".equals(localValue(behind, "s/0")));
            List<Long> revisions = c.nodes().stream().map(n -> {
                try {
                    return range(n, "s/59", true).get(10, TimeUnit.SECONDS).getKvs(0).getModRevision();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).toList();
            assertEquals(1, revisions.stream().distinct().count(), "same revision on every member: " + revisions);
        }
    }

    /** What a cluster's first election looked like. */
    private record FirstElection(String leader, long term, long nanos) {
    }

    private static FirstElection firstElection(long seed) throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3, Map.of(), seed)) {
            Node leader = c.leader();
            return new FirstElection(leader.name, leader.server.memberStatus().term(), c.firstLeaderNanos());
        }
    }

    @Test
    void theSameSeedReplaysTheSameElection() throws Exception {
        // a seed whose members' first election timeouts all differ, so one of them campaigns alone
        FirstElection first = firstElection(7);
        assertEquals(first, firstElection(7), "the same member elected in the same term at the same time");
        assertTrue(first.nanos() >= ELECTION_TICKS * TICK_NANOS && first.nanos() < 2 * ELECTION_TICKS * TICK_NANOS,
                "elected after its randomized election timeout: " + first);
    }
}
