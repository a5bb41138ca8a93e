package io.etcdj.embedded;

import static io.etcdj.embedded.EtcdClusterTest.bytes;
import static io.etcdj.embedded.EtcdClusterTest.client;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import io.etcdj.harness.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Members as child JVMs: what only a process can show (SIGKILL, SIGSTOP). */
class ChildProcessClusterIT {
    private static final Duration LEADER = Duration.ofSeconds(20);

    @Test
    void pausedFollowerMissesNothingAndKilledLeaderIsReplaced() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().members(3).mode(Mode.CHILD_PROCESS).build().start();
                Client client = client(etcd.clientEndpoints())) {
            EtcdMember leader = etcd.waitForLeader(LEADER);
            EtcdMember follower = etcd.members().stream().filter(m -> m != leader).findFirst().orElseThrow();
            follower.pause();
            assertFalse(follower.probe().healthy(), "a paused member does not answer");
            client.getKVClient().put(bytes("while-paused"), bytes("1")).get(20, TimeUnit.SECONDS);
            follower.resume();
            try (Client direct = client(List.of(follower.clientEndpoint()))) {
                assertEquals("1", direct.getKVClient().get(bytes("while-paused")).get(20, TimeUnit.SECONDS)
                        .getKvs().get(0).getValue().toString(StandardCharsets.UTF_8));
            }
            leader.kill();
            assertFalse(leader.isRunning(), "SIGKILL ends the process");
            EtcdMember next = etcd.waitForLeader(LEADER);
            assertNotEquals(leader.name(), next.name());
            client.getKVClient().put(bytes("after-kill"), bytes("2")).get(20, TimeUnit.SECONDS);
            leader.start();
            assertTrue(leader.isHealthy());
        }
    }

    @Test
    void aCrashFailpointHaltsTheProcessOfItsMemberOnly() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().members(3).mode(Mode.CHILD_PROCESS)
                        .failpoints("member2", "defragBeforeCopy=crash").build().start();
                Client client = client(etcd.clientEndpoints())) {
            etcd.waitForLeader(LEADER);
            client.getMaintenanceClient().defragmentMember(etcd.member(0).clientEndpoint().toString()).get(30, TimeUnit.SECONDS);
            assertThrows(ExecutionException.class, () -> client.getMaintenanceClient()
                    .defragmentMember(etcd.member(2).clientEndpoint().toString()).get(30, TimeUnit.SECONDS));
            Eventually.until("member2's process halts in its failpoint", Duration.ofSeconds(20),
                    () -> !etcd.member(2).isRunning());
            assertTrue(etcd.member(0).isRunning() && etcd.member(1).isRunning(), "the others run on");
            client.getKVClient().put(bytes("after-crash"), bytes("1")).get(20, TimeUnit.SECONDS);
        }
    }
}
