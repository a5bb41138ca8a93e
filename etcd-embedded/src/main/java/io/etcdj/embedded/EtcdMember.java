package io.etcdj.embedded;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * One member of an {@link EtcdCluster}: its name, URLs and data dir stay the same across stops
 * and starts, as a real member's do.
 */
public final class EtcdMember {
    private final String name;
    private final URI clientUrl;
    private final URI peerUrl;
    private final Path dataDir;
    private final MemberRunner runner;
    private final HealthProbe probe;
    private final Supplier<List<String>> flags;
    private final Duration startTimeout;

    EtcdMember(String name, URI clientUrl, URI peerUrl, Path dataDir, MemberRunner runner, HealthProbe probe,
            Supplier<List<String>> flags, Duration startTimeout) {
        this.name = name;
        this.clientUrl = clientUrl;
        this.peerUrl = peerUrl;
        this.dataDir = dataDir;
        this.runner = runner;
        this.probe = probe;
        this.flags = flags;
        this.startTimeout = startTimeout;
    }

    public String name() {
        return name;
    }

    /** The URL clients use ({@code http://127.0.0.1:PORT}, {@code https://} with TLS). */
    public URI clientEndpoint() {
        return clientUrl;
    }

    public URI peerEndpoint() {
        return peerUrl;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Starts the member (on its data dir if it ran before); returns once it serves clients. */
    public synchronized void start() {
        if (runner.running()) {
            throw new IllegalStateException("member " + name + " is already running");
        }
        runner.start(flags.get(), startTimeout);
    }

    /** Stops the member in order (SIGTERM for a child process). */
    public synchronized void stop() {
        runner.stop();
    }

    /** Stops and starts the member on its data dir. */
    public synchronized void restart() {
        runner.stop();
        runner.start(flags.get(), startTimeout);
    }

    /** Kills the member at once (SIGKILL for a child process; in-process members are stopped). */
    public synchronized void kill() {
        runner.kill();
    }

    /** Freezes the member (SIGSTOP): it neither answers nor votes until {@link #resume}. Child processes only. */
    public synchronized void pause() {
        runner.pause();
    }

    public synchronized void resume() {
        runner.resume();
    }

    public boolean isRunning() {
        return runner.running();
    }

    /** Whether the member answers {@code /health} with {@code true}. */
    public boolean isHealthy() {
        return runner.running() && probe.healthy();
    }

    HealthProbe probe() {
        return probe;
    }

    String recentOutput() {
        return runner.recentOutput();
    }

    @Override
    public String toString() {
        return name + " (" + clientUrl + ")";
    }
}
