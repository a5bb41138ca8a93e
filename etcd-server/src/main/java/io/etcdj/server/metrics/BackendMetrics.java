package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Gauge;

/**
 * What the backend counts, and only that: its commits (etcd's etcd_disk_backend_commit_* and
 * bbolt's commit phases) and its open read transactions. The backend is given this, not the
 * member's whole {@link Metrics}.
 */
public final class BackendMetrics {
    private final Metrics.Timing commitWrite;
    private final Metrics.Timing commitSpill;
    private final Metrics.Timing commitRebalance;
    private final Gauge openReadTxns;

    BackendMetrics(Metrics m) {
        commitWrite = m.backendCommitWrite;
        commitSpill = m.backendCommitSpill;
        commitRebalance = m.backendCommitRebalance;
        openReadTxns = m.openReadTxns;
    }

    /** Instruments that count into a registry of their own, for a backend outside a member (the offline tools). */
    public static BackendMetrics unexported() {
        return new Metrics().backend;
    }

    /**
     * A transaction committed (started at {@code startNanos}). LMDB has no separate rebalance and
     * spill phases (it rebalances within each delete and writes its dirty pages in the commit):
     * those two are observed as zero per commit, so their counts are the commits.
     */
    public void committed(long startNanos) {
        commitWrite.since(startNanos);
        commitSpill.observeNanos(0);
        commitRebalance.observeNanos(0);
    }

    public void readTxnOpened() {
        openReadTxns.inc();
    }

    public void readTxnClosed() {
        openReadTxns.dec();
    }
}
