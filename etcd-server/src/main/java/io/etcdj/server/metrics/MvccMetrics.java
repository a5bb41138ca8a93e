package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * What the MVCC store counts itself: its compactions (etcd's etcd_debugging_mvcc_*compaction*
 * families). Requests are counted where they are served, so they are not here. The store is given
 * this, not the member's whole {@link Metrics}.
 */
public final class MvccMetrics {
    private final Counter compactionKeys;
    private final Histogram compactionPauseMs;
    private final Histogram compactionTotalMs;
    private final Histogram indexCompactionPauseMs;

    MvccMetrics(Metrics m) {
        compactionKeys = m.compactionKeys;
        compactionPauseMs = m.compactionPauseMs;
        compactionTotalMs = m.compactionTotalMs;
        indexCompactionPauseMs = m.indexCompactionPauseMs;
    }

    /** Instruments that count into a registry of their own, for a store outside a member (the offline tools). */
    public static MvccMetrics unexported() {
        return new Metrics().mvcc;
    }

    /** The key index was compacted, from {@code startNanos} on. */
    public void indexCompacted(long startNanos) {
        indexCompactionPauseMs.observe(millisSince(startNanos));
    }

    /** A batch of {@code keys} revisions was deleted from the backend, from {@code batchStartNanos} on. */
    public void batchCompacted(int keys, long batchStartNanos) {
        compactionKeys.inc(keys);
        compactionPauseMs.observe(millisSince(batchStartNanos));
    }

    /** A whole compaction ended, started at {@code startNanos}. */
    public void compacted(long startNanos) {
        compactionTotalMs.observe(millisSince(startNanos));
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
