package io.etcdj.server.etcdserver;

import io.etcdj.server.metrics.Metrics;
import java.util.Objects;

/**
 * What one member owns that etcd keeps per process: its metrics registry and its failpoints.
 * Several members may run in one JVM (the in-JVM test cluster, an embedded cluster), so nothing
 * of this is static: the member is given its context when it is opened and hands the parts on
 * through constructors to what it builds.
 *
 * @param metrics the member's instruments and registry (its /metrics)
 * @param failpoints the member's failpoints ({@link Failpoints#NONE} for none)
 */
public record MemberContext(Metrics metrics, Failpoints failpoints) {
    public MemberContext {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(failpoints, "failpoints");
    }

    /** A context of its own: a fresh registry, no failpoints. */
    public static MemberContext fresh() {
        return new MemberContext(new Metrics(), Failpoints.NONE);
    }
}
