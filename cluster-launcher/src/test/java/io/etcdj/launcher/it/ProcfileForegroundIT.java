package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.RunningCommand;
import io.etcdj.launcher.supervisor.ClusterState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A plain Procfile in etcd's own format, run in the foreground like {@code goreman start}: member
 * output interleaved with name prefixes, control from another "terminal" while it runs, and
 * SIGTERM stops every member.
 */
class ProcfileForegroundIT {
    @Test
    void procfileInTheForeground() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            int[] client = {FreePorts.pickRange(2), FreePorts.pickRange(2), FreePorts.pickRange(2)};
            int[] peer = {FreePorts.pickRange(2), FreePorts.pickRange(2), FreePorts.pickRange(2)};
            StringBuilder initial = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                initial.append(i == 0 ? "" : ",").append("infra").append(i + 1).append("=http://127.0.0.1:").append(peer[i]);
            }
            StringBuilder procfile = new StringBuilder("# etcd's Procfile, with test ports\n");
            for (int i = 0; i < 3; i++) {
                procfile.append("etcd").append(i + 1).append(": bin/etcd --name infra").append(i + 1)
                        .append(" --listen-client-urls http://127.0.0.1:").append(client[i])
                        .append(" --advertise-client-urls http://127.0.0.1:").append(client[i])
                        .append(" --listen-peer-urls http://127.0.0.1:").append(peer[i])
                        .append(" --initial-advertise-peer-urls http://127.0.0.1:").append(peer[i])
                        .append(" --initial-cluster-token etcd-cluster-1 --initial-cluster '").append(initial)
                        .append("' --initial-cluster-state new --heartbeat-interval=50 --election-timeout=500\n");
            }
            h.write("Procfile", procfile.toString());

            RunningCommand launcher = Command.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.etcdj.launcher.Main", "up", "-f", "Procfile",
                    "--base-dir", "cluster", "--etcd-binary", LauncherHarness.etcd(), "--no-color")
                    .dir(h.dir).withoutEnvIf(k -> k.equals("ETCD_BIN")).mergeStderr().start();
            try {
                launcher.requireStdout("\"cluster is up\"", Duration.ofSeconds(60), out -> out.contains("cluster is up"));
                List<String> lines = launcher.stdout().lines().toList();
                for (String p : List.of("etcd1", "etcd2", "etcd3")) {
                    assertTrue(lines.stream().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d " + p + " +\\| .+")),
                            "prefixed output of " + p);
                }

                try (Kv one = new Kv("http://127.0.0.1:" + client[0]); Kv three = new Kv("http://127.0.0.1:" + client[2])) {
                    one.put("foo", "bar");
                    assertEquals("bar", three.get("foo", 5).orElseThrow());
                }
                // goreman's "run stop etcd2", from another terminal, by process or member name
                h.run("stop", "etcd2", "-f", "Procfile", "--base-dir", "cluster").expectOk();
                assertEquals("stopped", h.state().member("infra2").orElseThrow().state());
                h.run("restart", "infra2", "-f", "Procfile", "--base-dir", "cluster").expectOk();
                assertEquals("running", h.state().member("etcd2").orElseThrow().state());

                List<Long> pids = h.seenPids();
                launcher.signal("TERM"); // as a terminal's Ctrl-C or kill would
                assertTrue(launcher.endsWithin(Duration.ofSeconds(60)), "launcher exits after SIGTERM");
                for (long pid : pids) {
                    assertFalse(LauncherHarness.alive(pid), "pid " + pid + " outlived the launcher");
                }
                assertEquals(ClusterState.STOPPED, h.state().phase());
            } finally {
                launcher.stop(Duration.ofSeconds(30)); // SIGTERM lets the launcher stop its members; the harness kills any left
            }
        }
    }
}
