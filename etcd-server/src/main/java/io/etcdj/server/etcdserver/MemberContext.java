package io.etcdj.server.etcdserver;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.util.Objects;

/**
 * What one member owns that etcd keeps per process: its metrics registry, its failpoints and its
 * log sink.
 * Several members may run in one JVM (the in-JVM test cluster, an embedded cluster), so nothing
 * of this is static: the member is given its context when it is opened and hands the parts on
 * through constructors to what it builds.
 *
 * @param metrics the member's instruments and registry (its /metrics)
 * @param failpoints the member's failpoints ({@link Failpoints#NONE} for none)
 * @param logs where the member's log lines go (the {@code etcd} command: its --log-* flags'
 *        sink, standard error by default)
 */
public record MemberContext(Metrics metrics, Failpoints failpoints, LogSink logs) {
    public MemberContext {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(failpoints, "failpoints");
        Objects.requireNonNull(logs, "logs");
    }

    /** A context of its own: a fresh registry, no failpoints, lines to standard error. */
    public static MemberContext fresh() {
        return new MemberContext(new Metrics(), Failpoints.NONE, LogSink.stderr());
    }

    /** A logger of this member's sink. */
    public Log log(String caller) {
        return logs.logger(caller);
    }
}
