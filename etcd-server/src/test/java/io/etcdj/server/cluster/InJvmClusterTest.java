package io.etcdj.server.cluster;

import static io.etcdj.server.cluster.InJvmCluster.eventually;
import static io.etcdj.server.cluster.InJvmCluster.eventuallyTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.server.cluster.InJvmCluster.Node;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Elections, replication, failures and membership on members in one JVM over a simulated
 * network: the real server, WAL, backend and apply path, no sockets and no processes, so each
 * case takes a second or two. The process-level suites (ClusterIT, LeaderRestartIT, robustness)
 * cover what needs real processes: SIGKILL, SIGSTOP, real links.
 */
class InJvmClusterTest {
    private static final long WAIT = 10;

    private static long put(Node n, String key, String value) throws Exception {
        return n.server.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8(value)).build()).get(WAIT, TimeUnit.SECONDS).getHeader().getRevision();
    }

    private static RangeResponse get(Node n, String key, boolean serializable) throws Exception {
        return n.server.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                .setSerializable(serializable).build()).get(WAIT, TimeUnit.SECONDS);
    }

    private static String value(Node n, String key, boolean serializable) throws Exception {
        RangeResponse r = get(n, key, serializable);
        return r.getCount() == 0 ? null : r.getKvs(0).getValue().toStringUtf8();
    }

    private static Node follower(InJvmCluster c, Node leader) {
        return c.nodes().stream().filter(n -> n != leader && n.running()).findFirst().orElseThrow();
    }

    @Test
    void aWriteThroughAnyMemberIsReadLinearizablyOnEvery() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            long rev = put(follower(c, leader), "k", "v1");
            for (Node n : c.nodes()) {
                RangeResponse r = get(n, "k", false);
                assertEquals("v1", r.getKvs(0).getValue().toStringUtf8(), n.name);
                assertEquals(rev, r.getKvs(0).getModRevision(), "the same revision everywhere");
            }
        }
    }

    @Test
    void whenTheLeaderStopsAnotherLeadsAndTheOldOneCatchesUpOnRestart() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node old = c.leader();
            put(old, "before", "1");
            old.stop();
            Node next = c.leader();
            assertNotEquals(old, next);
            put(next, "after", "2");
            old.start();
            eventuallyTrue(20, "the old leader catching up", () -> {
                try {
                    return "2".equals(value(old, "after", true)) && "1".equals(value(old, "before", true));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Test
    void anIsolatedFollowerRefusesLinearizableReadsAndCatchesUpWhenHealed() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node cut = follower(c, leader);
            c.net().isolate(cut.id());
            put(leader, "while-cut", "x");
            assertThrows(ExecutionException.class, () -> get(cut, "while-cut", false),
                    "a member that cannot reach the leader cannot prove a read is current");
            assertEquals(null, value(cut, "while-cut", true), "a serializable read is local: stale, as documented");
            c.net().heal();
            eventuallyTrue(20, "the follower catching up", () -> {
                try {
                    return "x".equals(value(cut, "while-cut", false));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Test
    void anIsolatedLeaderStepsDownAndTheMajorityGoesOn() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node old = c.leader();
            c.net().isolate(old.id());
            Node other = follower(c, old);
            Node next = eventually(20, "a leader among the majority", () -> {
                long lead = other.server.status().getLeader();
                return lead != 0 && lead != old.id() ? other : null;
            });
            put(next, "majority", "m");
            eventuallyTrue(20, "the isolated leader stepping down", () -> old.server.status().getLeader() != old.id());
            assertThrows(ExecutionException.class, () -> put(old, "minority", "lost"),
                    "the cut-off member cannot commit a write");
            c.net().heal();
            Node leader = c.leader();
            assertEquals(null, value(leader, "minority", false), "the refused write never appears");
            eventuallyTrue(20, "the old leader catching up", () -> {
                try {
                    return "m".equals(value(old, "majority", false));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    @Test
    void aRemovedMemberStopsAndTheOthersGoOn() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node leader = c.leader();
            Node removed = follower(c, leader);
            leader.server.cluster().remove(removed.id()).get(WAIT, TimeUnit.SECONDS);
            eventuallyTrue(20, "the removed member reporting it must stop", () -> removed.fatal);
            removed.stop();
            assertEquals(2, leader.server.cluster().list(true).get(WAIT, TimeUnit.SECONDS).getMembersCount());
            put(c.leader(), "after-remove", "ok");
        }
    }

    @Test
    void leasesGrantedAndRenewedThroughAFollower() throws Exception {
        try (InJvmCluster c = InJvmCluster.start(3)) {
            Node f = follower(c, c.leader());
            long id = f.server.leases().grant(LeaseGrantRequest.newBuilder().setTTL(30).build())
                    .get(WAIT, TimeUnit.SECONDS).getID();
            long ttl = f.server.leases().keepAlive(id).get(WAIT, TimeUnit.SECONDS).getTTL();
            assertTrue(ttl > 0 && ttl <= 30, "renewed on the leader: " + ttl);
            assertEquals(0, f.server.leases().keepAlive(id + 1).get(WAIT, TimeUnit.SECONDS).getTTL(), "unknown lease");
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
                put(leader, "s/" + i, "v" + i);
            }
            behind.start();
            eventuallyTrue(30, "the restarted member catching up", () -> {
                try {
                    return "v59".equals(value(behind, "s/59", true)) && "v0".equals(value(behind, "s/0", true));
                } catch (Exception e) {
                    return false;
                }
            });
            List<Long> revisions = c.nodes().stream().map(n -> {
                try {
                    return get(n, "s/59", true).getKvs(0).getModRevision();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).toList();
            assertEquals(1, revisions.stream().distinct().count(), "same revision on every member: " + revisions);
        }
    }
}
