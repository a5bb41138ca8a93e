package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ServerCommand;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A new member whose initial cluster names a peer that already runs another cluster (here: the
 * same member name and URL under another --initial-cluster-token) refuses to start, as etcd's
 * clustering guide shows: `conflicting cluster ID to the target cluster (a != b). Exiting.`, exit
 * status 1, and no data dir it would later take for its own.
 */
class BootstrapConflictIT {

    @Test
    void aNewMemberRefusesAPeerThatRunsAnotherCluster() throws Exception {
        try (EtcdProcess running = EtcdProcess.of(ServerCommand.ours(), "infra0", null, "--initial-cluster-token=first");
             EtcdProcess joining = EtcdProcess.of(ServerCommand.ours(), "infra1", null, "--initial-cluster-token=second")) {
            running.joinAs("infra0=" + running.peerUrl(), "new");
            running.start();
            joining.joinAs("infra0=" + running.peerUrl() + ",infra1=" + joining.peerUrl(), "new");
            joining.launch();
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(50), joining::isAlive, alive -> !alive);
            assertFalse(joining.isAlive(), "the member exits; log:\n" + joining.logTail());
            assertEquals(1, joining.exitCode(), joining.logTail());
            String log = joining.logSinceLaunch();
            assertTrue(log.matches("(?s).*conflicting cluster ID to the target cluster \\([0-9a-f]+ != [0-9a-f]+\\)\\. Exiting\\..*"),
                    log);
            assertFalse(log.contains("starting local member"), "no member state was written; log:\n" + log);
            assertTrue(running.isAlive(), "the running cluster is left alone");
        }
    }
}
