package io.etcdj.ctl.it;

import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.LoggedProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Members of our server (bin/etcd, the packaged build) on free loopback ports, data and logs under
 * one directory, started with exactly the flags and {@code ETCD_*} variables a procedure gives (the
 * seeds' operator procedures); closing kills every process it started.
 */
final class OurMembers implements AutoCloseable {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final Path dir;
    private final Path binary;
    private final List<LoggedProcess> processes = new ArrayList<>();

    /** Members of our server. */
    OurMembers(Path dir) {
        this(dir, ROOT.resolve("bin/etcd"));
    }

    /** Members of {@code binary}, which takes etcd's flags (ours, or the real etcd for a comparison). */
    OurMembers(Path dir, Path binary) {
        this.dir = dir;
        this.binary = binary;
    }

    /** A member to start: its name and ports. */
    record Member(String name, int client, int peer) {
        String endpoint() {
            return "127.0.0.1:" + client;
        }

        String peerUrl() {
            return "http://127.0.0.1:" + peer;
        }
    }

    static Member member(String name) {
        return new Member(name, FreePorts.pick(), FreePorts.pick());
    }

    static String initialCluster(List<Member> members) {
        return String.join(",", members.stream().map(m -> m.name() + "=" + m.peerUrl()).toList());
    }

    /** Starts {@code m} with {@code --initial-cluster} and waits until its client port listens. */
    void start(Member m, String initialCluster, String state, String token) throws IOException, InterruptedException {
        launch(m, initialCluster, state, token);
        awaitPort(m.client());
    }

    /** Starts {@code m} without waiting (members of a new cluster must start together). */
    void launch(Member m, String initialCluster, String state, String token) throws IOException {
        launch(m, Map.of(), "--name=" + m.name(), "--initial-cluster=" + initialCluster,
                "--initial-cluster-state=" + state, "--initial-cluster-token=" + token);
    }

    /**
     * Starts {@code m} with its URLs and data dir as flags and the rest as given: further flags and
     * {@code ETCD_*} variables (the seeds' procedures set ETCD_NAME, ETCD_INITIAL_CLUSTER...).
     */
    LoggedProcess launch(Member m, Map<String, String> env, String... flags) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--data-dir=" + dir.resolve(m.name() + ".etcd"),
                "--listen-client-urls=http://" + m.endpoint(), "--advertise-client-urls=http://" + m.endpoint(),
                "--listen-peer-urls=" + m.peerUrl(), "--initial-advertise-peer-urls=" + m.peerUrl()));
        cmd.addAll(List.of(flags));
        LoggedProcess p = LoggedProcess.start(m.name(), cmd, dir.resolve(m.name() + ".log"), null, env);
        processes.add(p);
        return p;
    }

    static void awaitPort(int port) throws InterruptedException {
        Eventually.until("port " + port + " listening", Duration.ofSeconds(60), () -> LoggedProcess.accepts(port));
    }

    @Override
    public void close() throws InterruptedException {
        for (LoggedProcess p : processes) {
            p.kill9();
        }
        processes.clear();
    }
}
