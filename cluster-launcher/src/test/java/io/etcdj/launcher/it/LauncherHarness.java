package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.harness.FreePorts;
import io.etcdj.harness.TempDirs;
import io.etcdj.launcher.Main;
import io.etcdj.launcher.cli.LauncherContext;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.StateFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs launcher commands in-process against a cluster in a temporary directory, with ports the
 * test picks, and guarantees cleanup: every process the state file ever named is killed and the
 * directory deleted, even when the test fails.
 */
final class LauncherHarness implements AutoCloseable {
    /** Test-cluster timing: short, but long enough for a busy 2-core machine. */
    static final String FAST_FLAGS = "flags: [--heartbeat-interval=50, --election-timeout=500]";

    final Path dir;
    private final List<Long> seenPids = new ArrayList<>();

    /** The etcd binary under test: ours by default (the pom sets it), the real one with -Dlauncher.etcd=/usr/bin/etcd. */
    static String etcd() {
        // absolute, because cluster files resolve a relative etcd: against their own directory
        return Path.of(System.getProperty("launcher.etcd", "/usr/bin/etcd")).toAbsolutePath().normalize().toString();
    }

    /** A command's outcome. */
    record Result(int code, String out, String err) {
        Result expectOk() {
            assertEquals(0, code, "exit code; stdout:\n" + out + "\nstderr:\n" + err);
            return this;
        }
    }

    LauncherHarness() throws IOException {
        dir = TempDirs.create("launcher-it");
    }

    Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("ETCD_BIN");
        env.put("NO_COLOR", "1");
        LauncherContext ctx = new LauncherContext(env, dir, Optional.empty(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        int code = Main.run(ctx, args);
        rememberPids();
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /** A YAML cluster file with {@code n} members m1..mn on fresh ports. */
    String yaml(int n, String... extraLines) {
        StringBuilder b = new StringBuilder();
        b.append("token: it-").append(ProcessHandle.current().pid()).append('\n');
        b.append("etcd: ").append(etcd()).append('\n');
        b.append("base-dir: cluster\n");
        b.append(FAST_FLAGS).append('\n');
        for (String line : extraLines) {
            b.append(line).append('\n');
        }
        b.append("members:\n");
        // p and p + 1 free: the fault proxy moves a member's real peer listener one port up
        for (int i = 1; i <= n; i++) {
            b.append("  m").append(i).append(":\n");
            b.append("    client-url: http://127.0.0.1:").append(FreePorts.pickRange(2)).append('\n');
            b.append("    peer-url: http://127.0.0.1:").append(FreePorts.pickRange(2)).append('\n');
        }
        return b.toString();
    }

    Path baseDir() {
        return dir.resolve("cluster");
    }

    ClusterState state() {
        return new StateFile(baseDir().resolve("launcher-state.json")).read().orElseThrow();
    }

    Optional<ClusterState> maybeState() {
        return new StateFile(baseDir().resolve("launcher-state.json")).read();
    }

    List<Long> seenPids() {
        rememberPids();
        return List.copyOf(seenPids);
    }

    private void rememberPids() {
        maybeState().ifPresent(s -> {
            if (s.supervisorPid() > 0 && !seenPids.contains(s.supervisorPid())) {
                seenPids.add(s.supervisorPid());
            }
            s.members().stream().map(ClusterState.MemberState::pid).filter(p -> p > 0 && !seenPids.contains(p))
                    .forEach(seenPids::add);
        });
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public void close() throws IOException {
        rememberPids(); // a launcher run as a child process (not through run()) wrote pids we have not seen
        try {
            if (maybeState().map(ClusterState::supervisorAlive).orElse(false)) {
                run("stop", "-f", "cluster.yml");
            }
        } catch (RuntimeException ignored) {
            // fall through to the hard cleanup
        }
        for (long pid : seenPids) {
            ProcessHandle.of(pid).ifPresent(h -> {
                h.destroyForcibly();
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // nothing more to do
                }
            });
        }
        TempDirs.delete(dir);
    }
}
