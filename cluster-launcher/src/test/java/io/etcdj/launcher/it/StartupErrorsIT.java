package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.launcher.supervisor.ClusterState;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** Start-up failures give a clear message, a non-zero exit and leave no process behind. */
class StartupErrorsIT {
    @Test
    void portInUseIsNamedBeforeAnythingStarts() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(2));
            URI taken = URI.create(h.run("env", "-f", "cluster.yml").out().lines()
                    .filter(l -> l.startsWith("export ETCDCTL_ENDPOINTS=")).findFirst().orElseThrow()
                    .split("=")[1].split(",")[1]);
            try (ServerSocket squatter = new ServerSocket()) {
                squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getPort()));
                LauncherHarness.Result r = h.run("up", "-d", "-f", "cluster.yml");
                assertEquals(1, r.code());
                assertEquals("Error: port " + taken.getPort() + " (client URL of m2, " + taken + ") is already in use\n", r.err());
            }
            ClusterState state = h.state();
            assertEquals(ClusterState.FAILED, state.phase());
            assertFalse(LauncherHarness.alive(state.supervisorPid()));
            state.members().forEach(m -> assertEquals(0, m.pid()));
        }
    }

    @Test
    void memberThatExitsDuringStartUpIsShownWithItsLastLines() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            String yaml = h.yaml(2).replace("members:\n  m1:\n", "members:\n  m1:\n    flags: [--no-such-flag]\n");
            h.write("cluster.yml", yaml);
            LauncherHarness.Result r = h.run("up", "-d", "-f", "cluster.yml");
            assertEquals(1, r.code());
            assertTrue(r.err().startsWith("Error: m1 exited during start-up with code "), r.err());
            assertTrue(r.err().contains("its last log lines:"), r.err());
            assertTrue(r.err().contains("no-such-flag"), "etcd's own complaint is shown:\n" + r.err());
            for (long pid : h.seenPids()) {
                assertFalse(LauncherHarness.alive(pid), "pid " + pid + " left running");
            }
        }
    }

    @Test
    void secondUpOnARunningClusterIsRefused() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(1));
            h.run("up", "-d", "-f", "cluster.yml").expectOk();
            LauncherHarness.Result again = h.run("up", "-d", "-f", "cluster.yml");
            assertEquals(1, again.code());
            assertTrue(again.err().startsWith("Error: a cluster is already running in "), again.err());
            h.run("stop", "-f", "cluster.yml").expectOk();
        }
    }

    @Test
    void membersOfAKilledLauncherAreFoundAndStopped() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(2));
            h.run("up", "-d", "-f", "cluster.yml").expectOk();
            ClusterState state = h.state();
            ProcessHandle launcher = ProcessHandle.of(state.supervisorPid()).orElseThrow();
            launcher.destroyForcibly(); // SIGKILL: no shutdown hook runs
            launcher.onExit().get();
            state.members().forEach(m -> assertTrue(LauncherHarness.alive(m.pid()), m.process() + " survived its launcher"));

            LauncherHarness.Result again = h.run("up", "-d", "-f", "cluster.yml");
            assertEquals(1, again.code());
            assertTrue(again.err().startsWith("Error: members of an earlier launcher that did not stop them are still running: m1 (pid "),
                    again.err());
            String out = h.run("stop", "-f", "cluster.yml").expectOk().out();
            assertTrue(out.contains("stopped leftover m1") && out.contains("stopped leftover m2"), out);
            state.members().forEach(m -> assertFalse(LauncherHarness.alive(m.pid()), m.process() + " still running"));
        }
    }
}
