package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * What the lessor counts: leases granted (and their TTLs), revoked and renewed (etcd's
 * etcd_debugging_lease_* families). The lessor is given this, not the member's whole
 * {@link Metrics}.
 */
public final class LeaseMetrics {
    private final Counter granted;
    private final Histogram ttl;
    private final Counter revoked;
    private final Counter renewed;

    LeaseMetrics(Metrics m) {
        granted = m.leaseGranted;
        ttl = m.leaseTtl;
        revoked = m.leaseRevoked;
        renewed = m.leaseRenewed;
    }

    /** Instruments that count into a registry of their own, for a lessor outside a member (tests, tools). */
    public static LeaseMetrics unexported() {
        return new Metrics().leases;
    }

    /** A lease granted with {@code ttlSeconds}. */
    public void granted(long ttlSeconds) {
        granted.inc();
        ttl.observe(ttlSeconds);
    }

    public void revoked() {
        revoked.inc();
    }

    /** A keep-alive renewed a lease on the leader. */
    public void renewed() {
        renewed.inc();
    }
}
