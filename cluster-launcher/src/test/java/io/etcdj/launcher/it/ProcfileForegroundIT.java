package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.launcher.supervisor.ClusterState;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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

            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.etcdj.launcher.Main", "up", "-f", "Procfile",
                    "--base-dir", "cluster", "--etcd-binary", LauncherHarness.etcd(), "--no-color")
                    .directory(h.dir.toFile()).redirectErrorStream(true);
            pb.environment().remove("ETCD_BIN");
            Process launcher = pb.start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the launcher exited
                }
            });
            reader.start();
            try {
                Eventually.get("\"cluster is up\"", Duration.ofSeconds(60), () -> {
                    if (!launcher.isAlive()) {
                        throw new Eventually.GiveUp("launcher exited early:\n" + String.join("\n", lines));
                    }
                    return lines.stream().anyMatch(l -> l.contains("cluster is up")) ? true : null;
                });
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
                launcher.destroy(); // SIGTERM, as a terminal's Ctrl-C or kill would
                assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "launcher exits after SIGTERM");
                for (long pid : pids) {
                    assertFalse(LauncherHarness.alive(pid), "pid " + pid + " outlived the launcher");
                }
                assertEquals(ClusterState.STOPPED, h.state().phase());
            } finally {
                launcher.destroy(); // SIGTERM lets the launcher stop its members; the harness kills any left
                launcher.waitFor(30, TimeUnit.SECONDS);
                launcher.destroyForcibly();
                reader.join(10_000);
            }
        }
    }
}
