package io.etcdj.ctl.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** One real etcd 3.4 process on 127.0.0.1 with free ports and its own temporary data directory. */
final class RealEtcd implements AutoCloseable {

    static final Path ETCD = Path.of("/usr/bin/etcd");
    static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");

    final String name;
    final int clientPort;
    final int peerPort;
    final Path dataDir;
    private Process process;
    private List<String> command;
    final TestCerts tls;

    private RealEtcd(String name, int clientPort, int peerPort, Path dataDir, Process process, TestCerts tls) {
        this.tls = tls;
        this.name = name;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.dataDir = dataDir;
        this.process = process;
    }

    static void requireInstalled() {
        if (!Files.isExecutable(ETCD) || !Files.isExecutable(ETCDCTL)) {
            throw new IllegalStateException("differential tests need the real etcd and etcdctl at " + ETCD + " and "
                    + ETCDCTL + " (Debian packages etcd-server and etcd-client)");
        }
    }

    static RealEtcd start(String name) throws IOException, InterruptedException {
        return start(name, null);
    }

    /** Starts etcd; with {@code tls} the client URL is https and client certificates are required. */
    static RealEtcd start(String name, TestCerts tls) throws IOException, InterruptedException {
        requireInstalled();
        int client = freePort();
        int peer = freePort();
        Path dir = Files.createTempDirectory("etcdctl-it-");
        String peerUrl = "http://127.0.0.1:" + peer;
        String clientUrl = (tls == null ? "http" : "https") + "://127.0.0.1:" + client;
        List<String> cmd = new java.util.ArrayList<>(List.of(ETCD.toString(), "--name", name, "--data-dir",
                dir.resolve("data").toString(),
                "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
                "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
                "--initial-cluster", name + "=" + peerUrl, "--initial-cluster-token", "etcdctl-it"));
        if (tls != null) {
            cmd.addAll(List.of("--cert-file", tls.serverCert().toString(), "--key-file", tls.serverKey().toString(),
                    "--trusted-ca-file", tls.caCert().toString(), "--client-cert-auth"));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true).redirectOutput(dir.resolve("etcd.log").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        Process p = pb.start();
        RealEtcd etcd = new RealEtcd(name, client, peer, dir, p, tls);
        etcd.command = cmd;
        try {
            etcd.awaitReady();
        } catch (IOException | RuntimeException e) {
            etcd.close();
            throw e;
        }
        return etcd;
    }

    /** Stops etcd and starts it again on the same ports and data (its simple auth tokens are lost). */
    void restart() throws IOException, InterruptedException {
        process.destroy();
        process.waitFor();
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("etcd.log").toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        process = pb.start();
        awaitReady();
    }

    String endpoint() {
        return (tls == null ? "" : "https://") + "127.0.0.1:" + clientPort;
    }

    /** The TLS flags a client needs for this server (none without TLS). */
    List<String> tlsFlags() {
        if (tls == null) {
            return List.of();
        }
        return List.of("--cacert=" + tls.caCert(), "--cert=" + tls.clientCert(), "--key=" + tls.clientKey());
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("etcd exited: " + Files.readString(dataDir.resolve("etcd.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", clientPort), 200);
                List<String> check0 = new java.util.ArrayList<>(etcdctlCommand("endpoint", "status"));
                Process check = new ProcessBuilder(check0).redirectErrorStream(true).start();
                check.getInputStream().readAllBytes();
                if (check.waitFor() == 0) {
                    return;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            Thread.sleep(100);
        }
        throw new IOException("etcd did not become healthy on " + endpoint());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // Temporary directory; nothing else to do.
        }
    }

    List<String> etcdctlCommand(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints=" + endpoint()));
        cmd.addAll(tlsFlags());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
