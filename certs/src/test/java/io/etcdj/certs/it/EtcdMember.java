package io.etcdj.certs.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One real etcd 3.4 process on 127.0.0.1, stopped (and killed if need be) on close. */
final class EtcdMember implements AutoCloseable {
    final String name;
    final int clientPort;
    final int peerPort;
    final Path dataDir;
    private final List<String> tlsFlags = new ArrayList<>();
    private Process process;
    private Path log;

    EtcdMember(String name, Path baseDir) throws IOException {
        this.name = name;
        this.clientPort = freePort();
        this.peerPort = freePort();
        this.dataDir = baseDir.resolve(name + ".etcd");
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    EtcdMember flags(String... flags) {
        tlsFlags.addAll(List.of(flags));
        return this;
    }

    String clientUrl() {
        return "https://127.0.0.1:" + clientPort;
    }

    String peerUrl(boolean tls) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + peerPort;
    }

    /** Starts the member in a new cluster described by {@code initialCluster}. */
    void start(String initialCluster, boolean peerTls) throws IOException {
        log = dataDir.resolveSibling(name + ".log");
        List<String> command = new ArrayList<>(List.of(ExternalCommand.ETCD.toString(),
                "--name", name, "--data-dir", dataDir.toString(),
                "--listen-client-urls", clientUrl(), "--advertise-client-urls", clientUrl(),
                "--listen-peer-urls", peerUrl(peerTls), "--initial-advertise-peer-urls", peerUrl(peerTls),
                "--initial-cluster", initialCluster, "--initial-cluster-token", "certs-it", "--initial-cluster-state", "new"));
        command.addAll(tlsFlags);
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Polls until etcdctl reports the endpoint healthy with the given TLS flags. */
    void awaitHealthy(List<String> etcdctlTls, Duration limit) throws Exception {
        Instant deadline = Instant.now().plus(limit);
        ExternalCommand last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + logTail());
            }
            last = etcdctl(etcdctlTls, "endpoint", "health");
            if (last.exitCode() == 0) {
                return;
            }
        }
        throw new AssertionError(name + " not healthy in " + limit + ": " + (last == null ? "" : last.output()) + "\n" + logTail());
    }

    ExternalCommand etcdctl(List<String> tls, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ExternalCommand.ETCDCTL.toString(), "--endpoints", clientUrl(),
                "--dial-timeout", "2s", "--command-timeout", "4s"));
        command.addAll(tls);
        command.addAll(List.of(args));
        return ExternalCommand.run(command, Duration.ofSeconds(15));
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
