package io.etcdj.ctl.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.ServerCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** One real etcd 3.4 process on 127.0.0.1 with free ports and its own temporary data directory. */
final class RealEtcd implements AutoCloseable {

    static final Path ETCD = ServerCommand.REAL_ETCD;
    static final Path ETCDCTL = ServerCommand.REAL_ETCDCTL;

    final String name;
    final int clientPort;
    final int peerPort;
    final Path dataDir;
    final TestCerts tls;
    private final EtcdProcess process;

    private RealEtcd(String name, EtcdProcess process, TestCerts tls) {
        this.name = name;
        this.process = process;
        this.clientPort = process.clientPort();
        this.peerPort = process.peerPort();
        this.dataDir = process.home();
        this.tls = tls;
    }

    static void requireInstalled() {
        Prerequisites.requireExecutable(ETCD, "etcd-server");
        Prerequisites.requireExecutable(ETCDCTL, "etcd-client");
    }

    static RealEtcd start(String name) throws IOException, InterruptedException {
        return start(name, null);
    }

    /** Starts etcd; with {@code tls} the client URL is https and client certificates are required. */
    static RealEtcd start(String name, TestCerts tls) throws IOException, InterruptedException {
        requireInstalled();
        List<String> flags = new ArrayList<>(List.of("--initial-cluster-token=etcdctl-it"));
        if (tls != null) {
            flags.addAll(List.of("--cert-file=" + tls.serverCert(), "--key-file=" + tls.serverKey(),
                    "--trusted-ca-file=" + tls.caCert(), "--client-cert-auth"));
        }
        EtcdProcess p = EtcdProcess.of(ServerCommand.realEtcd(), name, null, flags.toArray(String[]::new));
        if (tls != null) {
            p.clientScheme("https");
        }
        RealEtcd etcd = new RealEtcd(name, p, tls);
        try {
            etcd.awaitReady();
        } catch (IOException | RuntimeException | Error e) {
            etcd.close();
            throw e;
        }
        return etcd;
    }

    /** Stops etcd and starts it again on the same ports and data (its simple auth tokens are lost). */
    void restart() throws IOException, InterruptedException {
        process.stop();
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

    /** Starts the process and waits until the real etcdctl gets its endpoint status. */
    private void awaitReady() throws IOException, InterruptedException {
        process.startUntilReadyLine();
        Eventually.until("etcd healthy on " + endpoint(), Duration.ofSeconds(20), () -> {
            if (!process.isAlive()) {
                throw new Eventually.GiveUp("etcd exited: " + process.logTail());
            }
            return realEtcdctl(etcdctlCommand("endpoint", "status")).run().exitCode() == 0;
        });
    }

    @Override
    public void close() {
        process.close();
    }

    /** {@code argv} (the real etcdctl and its arguments) with ETCDCTL_API=3 and none of the machine's other ETCDCTL settings. */
    static Command realEtcdctl(List<String> argv) {
        return Command.of(argv).withoutEnv("ETCDCTL").env("ETCDCTL_API", "3");
    }

    List<String> etcdctlCommand(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints=" + endpoint()));
        cmd.addAll(tlsFlags());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
