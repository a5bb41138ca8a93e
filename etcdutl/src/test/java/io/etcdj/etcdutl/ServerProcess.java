package io.etcdj.etcdutl;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Our etcd server as a child process on free 127.0.0.1 ports, run from the test class path; or,
 * made by {@link #realEtcd}, the real etcd (3.4, at $ETCD or /usr/bin/etcd) with the same flags.
 */
final class ServerProcess implements AutoCloseable {
    private static final String READY = "ready to serve client requests";
    /** The real etcd binary, for differential tests. */
    static final Path REAL_ETCD = Path.of(System.getenv().getOrDefault("ETCD", "/usr/bin/etcd"));

    final String name;
    final int clientPort = freePort();
    final int peerPort = freePort();
    private final Path dataDir;
    private final Path log;
    private Process process;
    private final boolean real;

    ServerProcess(String name, Path dataDir) {
        this(name, dataDir, false);
    }

    private ServerProcess(String name, Path dataDir, boolean real) {
        this.name = name;
        this.dataDir = dataDir;
        this.log = dataDir.resolveSibling(name + ".log");
        this.real = real;
    }

    /** The real etcd on {@code dataDir}; fails clearly when it is not installed. */
    static ServerProcess realEtcd(String name, Path dataDir) {
        if (!Files.isExecutable(REAL_ETCD)) {
            throw new IllegalStateException("this test needs the real etcd at " + REAL_ETCD + " (or $ETCD)");
        }
        return new ServerProcess(name, dataDir, true);
    }

    String endpoint() {
        return "127.0.0.1:" + clientPort;
    }

    String peerUrl() {
        return "http://127.0.0.1:" + peerPort;
    }

    Path dataDir() {
        return dataDir;
    }

    /** Starts without waiting; {@code initialCluster} matters only for a new data dir. */
    void launch(String initialCluster) throws IOException {
        String client = "http://" + endpoint();
        List<String> cmd = new ArrayList<>(real ? List.of(REAL_ETCD.toString()) : List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), "io.etcdj.server.Main"));
        cmd.addAll(List.of(
                "--name=" + name, "--data-dir=" + dataDir,
                "--listen-client-urls=" + client, "--advertise-client-urls=" + client,
                "--listen-peer-urls=" + peerUrl(), "--initial-advertise-peer-urls=" + peerUrl(),
                "--initial-cluster=" + initialCluster));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        process = pb.start();
    }

    /** Waits until the member logged that it serves clients and accepts connections. */
    void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logText());
            }
            if (logText().contains(READY) && accepts()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " not ready in 60 s:\n" + logText());
    }

    String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", clientPort), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGTERM, then SIGKILL if it lingers; the backend is synced at a clean shutdown. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            stop();
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    /** Below the kernel's ephemeral range, so a member's outgoing connections cannot take it first. */
    static int freePort() {
        return io.etcdj.server.it.FreePorts.pick();
    }
}
