package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * unix:// listeners, as etcd has them: {@code unix://localhost:port} is a socket file named
 * {@code localhost:port} in the member's working directory. The real etcdctl talks to a client
 * socket of ours and of etcd 3.4 and sees the same; a cluster of ours whose peers listen and dial
 * only unix sockets elects a leader and replicates; a stopped member leaves no socket file.
 */
class UnixSocketIT {

    @Test
    void theRealEtcdctlTalksToAUnixClientSocketAsToEtcds() throws Exception {
        List<String> real = clientScenario(EtcdProcess::realEtcd, false);
        List<String> ours = clientScenario(EtcdProcess::ours, true);
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    private static List<String> clientScenario(Function<String[], EtcdProcess> kind, boolean ours)
            throws Exception {
        List<String> seen = new ArrayList<>();
        int socketPort = FreePorts.pick();
        String socket = "unix://localhost:" + socketPort;
        try (EtcdProcess m = kind.apply(new String[0])) {
            m.alsoListenOn(socket);
            m.workingDir(m.home());
            m.start();
            Path file = m.home().resolve("localhost:" + socketPort);
            assertTrue(Files.exists(file), "socket file " + file + " on " + m.describe());
            Etcdctl ctl = new Etcdctl(socket, m.home());
            seen.add("put: " + ctl.run("put", "unix/k", "v").ok().stdout());
            seen.add("get: " + ctl.run("get", "unix/k").ok().stdout());
            seen.add("txn: " + ctl.runWithInput("\nput unix/t 1\n\n\n", "txn").ok().stdout());
            seen.add("del: " + ctl.run("del", "unix/", "--prefix").ok().stdout());
            Etcdctl.Result health = ctl.run("endpoint", "health");
            seen.add("health: exit " + health.exitCode() + " " + (health.stdout() + health.stderr())
                    .replaceAll("took = \\S+", "took = X").replace("localhost:" + socketPort, "localhost:<port>"));
            if (ours) {
                m.stop();
                assertFalse(Files.exists(file), "the socket file is removed when the member stops");
            }
        }
        return seen;
    }

    @Test
    void aClusterWhosePeersUseOnlyUnixSocketsReplicates() throws Exception {
        Path shared = TempDirs.create("etcd-unix-peers-");
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, m -> m.unixPeer(shared))) {
            Etcdctl ctl = new Etcdctl(c.member(0).endpoint());
            String members = ctl.run("member", "list").ok().stdout();
            for (EtcdProcess m : c.members()) {
                assertTrue(members.contains(m.peerUrl()), members);
                assertTrue(m.peerUrl().startsWith("unix://localhost:"), m.peerUrl());
            }
            ctl.run("put", "unix/peer", "replicated").ok();
            for (EtcdProcess m : c.members()) {
                assertEquals("unix/peer\nreplicated\n",
                        new Etcdctl(m.endpoint()).run("get", "unix/peer").ok().stdout(), "read through " + m);
            }
        } finally {
            TempDirs.delete(shared);
        }
    }
}
