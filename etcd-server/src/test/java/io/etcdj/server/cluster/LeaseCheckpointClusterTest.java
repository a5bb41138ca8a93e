package io.etcdj.server.cluster;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.server.cluster.InJvmCluster.Node;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * etcd's TestV3LeaseCheckpoint on members in one JVM: with checkpoints on (here every 2 s instead
 * of 5 min), a lease's remaining TTL survives the leader's loss and a restart of every member,
 * where without them the new leader gives the lease its full TTL again.
 */
class LeaseCheckpointClusterTest {
    private static final long WAIT = 10;
    private static final long TTL = 300;

    private static long timeToLive(Node n, long id) throws Exception {
        return n.server.leases().timeToLive(LeaseTimeToLiveRequest.newBuilder().setID(id).build())
                .get(WAIT, TimeUnit.SECONDS).getTTL();
    }

    @Test
    void theRemainingTtlSurvivesALeaderChangeAndAFullRestart() throws Exception {
        System.setProperty("etcdj.lease-checkpoint-interval", "2s");
        try (InJvmCluster c = InJvmCluster.start(3, Map.of("experimental-enable-lease-checkpoint", "true"))) {
            Node leader = c.leader();
            long id = leader.server.leases().grant(LeaseGrantRequest.newBuilder().setTTL(TTL).build())
                    .get(WAIT, TimeUnit.SECONDS).getID();
            Thread.sleep(3_500); // one checkpoint at 2 s, with room to commit it

            leader.stop();
            Node next = c.leader();
            assertNotEquals(leader, next);
            long afterFailover = timeToLive(next, id);
            // without the checkpoint the new leader would answer 300 (full TTL plus its extension)
            assertTrue(afterFailover <= TTL - 2 && afterFailover > TTL - 30, "TTL after the leader change: " + afterFailover);

            for (Node n : c.nodes()) {
                n.stop();
            }
            for (Node n : c.nodes()) {
                n.start();
            }
            long afterRestart = timeToLive(c.leader(), id);
            assertTrue(afterRestart <= TTL - 2 && afterRestart > TTL - 30,
                    "the persisted checkpoint survives a restart of the whole cluster: " + afterRestart);
        } finally {
            System.clearProperty("etcdj.lease-checkpoint-interval");
        }
    }
}
