package com.example.flags;

import static com.example.flags.Bytes.of;
import static com.example.flags.Bytes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.election.LeaderKey;
import io.etcd.jetcd.test.EtcdClusterExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Lock and election as jetcd's LockTest and ElectionTest use them, on three members. */
class LockElectionTest {
    @RegisterExtension
    static final EtcdClusterExtension cluster = EtcdClusterExtension.builder().withNodes(3).build();

    private static Client newClient() {
        return Client.builder().target("cluster://" + cluster.clusterName()).build();
    }

    @Test
    void aLockIsHeldByOneClientUntilItUnlocks() throws Exception {
        try (Client a = newClient(); Client b = newClient()) {
            long leaseA = a.getLeaseClient().grant(30).get().getID();
            long leaseB = b.getLeaseClient().grant(30).get().getID();
            ByteSequence held = a.getLockClient().lock(of("locks/job"), leaseA).get(10, TimeUnit.SECONDS).getKey();
            CompletableFuture<ByteSequence> waiting = b.getLockClient().lock(of("locks/job"), leaseB)
                    .thenApply(r -> r.getKey());
            Thread.sleep(500);
            assertFalse(waiting.isDone(), "the second client waits while the first holds the lock");
            a.getLockClient().unlock(held).get(10, TimeUnit.SECONDS);
            ByteSequence second = waiting.get(10, TimeUnit.SECONDS);
            b.getLockClient().unlock(second).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aLockIsReleasedWhenItsHoldersLeaseIsRevoked() throws Exception {
        try (Client a = newClient(); Client b = newClient()) {
            long leaseA = a.getLeaseClient().grant(30).get().getID();
            a.getLockClient().lock(of("locks/crash"), leaseA).get(10, TimeUnit.SECONDS);
            long leaseB = b.getLeaseClient().grant(30).get().getID();
            CompletableFuture<?> waiting = b.getLockClient().lock(of("locks/crash"), leaseB);
            a.getLeaseClient().revoke(leaseA).get(10, TimeUnit.SECONDS);
            waiting.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theFirstCandidateLeadsAndTheNextTakesOverWhenItResigns() throws Exception {
        try (Client a = newClient(); Client b = newClient()) {
            ByteSequence election = of("elections/primary");
            long leaseA = a.getLeaseClient().grant(30).get().getID();
            long leaseB = b.getLeaseClient().grant(30).get().getID();
            LeaderKey leaderA = a.getElectionClient().campaign(election, leaseA, of("node-a")).get(10, TimeUnit.SECONDS)
                    .getLeader();
            CompletableFuture<LeaderKey> candidateB = b.getElectionClient().campaign(election, leaseB, of("node-b"))
                    .thenApply(r -> r.getLeader());
            assertEquals("node-a", text(b.getElectionClient().leader(election).get(10, TimeUnit.SECONDS).getKv().getValue()));
            try {
                candidateB.get(500, TimeUnit.MILLISECONDS);
                throw new AssertionError("the second candidate must wait while the first leads");
            } catch (TimeoutException expected) {
                // still campaigning
            }
            a.getElectionClient().resign(leaderA).get(10, TimeUnit.SECONDS);
            candidateB.get(10, TimeUnit.SECONDS);
            assertEquals("node-b", text(a.getElectionClient().leader(election).get(10, TimeUnit.SECONDS).getKv().getValue()));
        }
    }
}
