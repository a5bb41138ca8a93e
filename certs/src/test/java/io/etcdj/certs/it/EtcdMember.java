package io.etcdj.certs.it;

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
 * One real etcd 3.4 process on 127.0.0.1 with TLS on its client (and, if asked, peer) URLs, which the
 * generated certificates must satisfy; stopped (and killed if need be) on close.
 */
final class EtcdMember implements AutoCloseable {
    final String name;
    final int clientPort;
    final int peerPort;
    final Path dataDir;
    private final List<String> tlsFlags = new ArrayList<>();
    private LoggedProcess process;

    EtcdMember(String name, Path baseDir) {
        this.name = name;
        this.clientPort = FreePorts.pick();
        this.peerPort = FreePorts.pick();
        this.dataDir = baseDir.resolve(name + ".etcd");
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
        List<String> command = new ArrayList<>(List.of(ExternalCommand.ETCD.toString(),
                "--name", name, "--data-dir", dataDir.toString(),
                "--listen-client-urls", clientUrl(), "--advertise-client-urls", clientUrl(),
                "--listen-peer-urls", peerUrl(peerTls), "--initial-advertise-peer-urls", peerUrl(peerTls),
                "--initial-cluster", initialCluster, "--initial-cluster-token", "certs-it", "--initial-cluster-state", "new"));
        command.addAll(tlsFlags);
        process = LoggedProcess.start(name, command, dataDir.resolveSibling(name + ".log"), null, Map.of());
    }

    /** Polls until etcdctl reports the endpoint healthy with the given TLS flags. */
    void awaitHealthy(List<String> etcdctlTls, Duration limit) throws Exception {
        Eventually.until(name + " healthy", limit, Duration.ZERO, () -> {
            if (!process.isAlive()) {
                throw new Eventually.GiveUp(name + " exited with " + process.exitCode() + ":\n" + logTail());
            }
            ExternalCommand health = etcdctl(etcdctlTls, "endpoint", "health");
            if (health.exitCode() != 0) {
                throw new IllegalStateException(health.output() + "\n" + logTail());
            }
            return true;
        });
    }

    ExternalCommand etcdctl(List<String> tls, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ExternalCommand.ETCDCTL.toString(), "--endpoints", clientUrl(),
                "--dial-timeout", "2s", "--command-timeout", "4s"));
        command.addAll(tls);
        command.addAll(List.of(args));
        return ExternalCommand.run(command, Duration.ofSeconds(15));
    }

    String logTail() {
        return process == null ? "(not started)" : process.logTail(15);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.stop(Duration.ofSeconds(10));
        }
    }
}
