package io.etcdj.ctl.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Members of our server (bin/etcd, the packaged build) on free loopback ports, data and logs under
 * one directory; closing kills every process it started.
 */
final class OurMembers implements AutoCloseable {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final Path dir;
    private final Path binary;
    private final List<Process> processes = new ArrayList<>();

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

    static Member member(String name) throws IOException {
        return new Member(name, freePort(), freePort());
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
        launch(m, java.util.Map.of(), "--name=" + m.name(), "--initial-cluster=" + initialCluster,
                "--initial-cluster-state=" + state, "--initial-cluster-token=" + token);
    }

    /**
     * Starts {@code m} with its URLs and data dir as flags and the rest as given: further flags and
     * {@code ETCD_*} variables (the seeds' procedures set ETCD_NAME, ETCD_INITIAL_CLUSTER...).
     */
    Process launch(Member m, java.util.Map<String, String> env, String... flags) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--data-dir=" + dir.resolve(m.name() + ".etcd"),
                "--listen-client-urls=http://" + m.endpoint(), "--advertise-client-urls=http://" + m.endpoint(),
                "--listen-peer-urls=" + m.peerUrl(), "--initial-advertise-peer-urls=" + m.peerUrl()));
        cmd.addAll(List.of(flags));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(m.name() + ".log").toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        pb.environment().putAll(env);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("port " + port + " not listening");
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        processes.clear();
    }
}
