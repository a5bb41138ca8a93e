package io.etcdj.embedded;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.FlagParser;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.embed.Member;
import io.etcdj.server.etcdserver.Failpoints;
import io.etcdj.server.etcdserver.MemberContext;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A member in this JVM ({@link Member}): started from the same flags as the {@code etcd} command,
 * without the process environment ({@code ETCD_*} variables and the {@code etcdj.failpoints}
 * property of the test JVM are not read). Each start gets a context of its own (a fresh metrics
 * registry, as a new process has, the failpoints its builder gave, its cluster's log sink), so
 * members and clusters in one JVM never mix their counts, failpoints or log lines.
 */
final class InProcessRunner implements MemberRunner {
    private final String name;
    private volatile Member member;
    private volatile String fatal;
    private final String failpoints;
    private final LogSink logs;

    /** {@code failpoints}: the member's own, as {@code name=action[,...]}, or null for none; {@code logs}: where its lines go. */
    InProcessRunner(String name, String failpoints, LogSink logs) {
        this.name = name;
        this.failpoints = failpoints;
        this.logs = logs;
    }

    @Override
    public void start(List<String> flags, Duration within) {
        ServerConfig config;
        try {
            FlagParser.Parsed parsed = FlagParser.parse(flags.toArray(String[]::new), Map.of());
            config = ServerConfig.from(parsed.values());
        } catch (ConfigException e) {
            throw new EtcdClusterException("member " + name + ": " + e.getMessage(), e);
        }
        fatal = null;
        try {
            MemberContext context = new MemberContext(new Metrics(),
                    Failpoints.of(failpoints, logs.logger("etcdserver/failpoints")), logs);
            member = Member.start(config, context, () -> fatal = "the member stopped after a fatal error (see its log lines)");
        } catch (ConfigException | IOException | RuntimeException e) {
            throw new EtcdClusterException("member " + name + " did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public void stop() {
        Member m = member;
        member = null;
        if (m != null) {
            m.close();
        }
    }

    /** In this JVM a member cannot be killed as a process: it is stopped (its last writes are synced). */
    @Override
    public void kill() {
        stop();
    }

    @Override
    public void pause() {
        throw new UnsupportedOperationException("member " + name + " runs in this JVM and cannot be paused;"
                + " build the cluster with .mode(Mode.CHILD_PROCESS) to pause and resume members");
    }

    @Override
    public void resume() {
        pause();
    }

    @Override
    public boolean running() {
        return member != null && fatal == null;
    }

    @Override
    public String recentOutput() {
        return fatal == null ? "(in-process member: its log lines went to the cluster's log sink, standard error by default)" : fatal;
    }
}
