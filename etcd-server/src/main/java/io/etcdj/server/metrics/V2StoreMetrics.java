package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;

/**
 * etcd 3.4's etcd_debugging_store_* families, which count its v2 store. etcd 3.4 keeps the
 * membership in that store; here they count the same operations on our membership records
 * (getRecursive when the members are loaded, create/set/delete when one is added, changed or
 * removed). No v2 API is served, so no v2 watcher or TTL key ever exists: those stay 0.
 */
public final class V2StoreMetrics {
    private static final Counter READS = Metrics.counter("etcd_debugging_store_reads_total",
            "Total number of reads action by (get/getRecursive), local to this member.", "action");
    private static final Counter WRITES = Metrics.counter("etcd_debugging_store_writes_total",
            "Total number of writes (e.g. set/compareAndDelete) seen by this member.", "action");
    private static final Counter EXPIRES = Metrics.counter("etcd_debugging_store_expires_total", "Total number of expired keys.");
    private static final Counter WATCH_REQUESTS = Metrics.counter("etcd_debugging_store_watch_requests_total",
            "Total number of incoming watch requests (new or reestablished).");
    private static final Gauge WATCHERS = Metrics.gauge("etcd_debugging_store_watchers", "Count of currently active watchers.");

    private V2StoreMetrics() {
    }

    /** Loads the families (with Metrics), so they are exported before the first membership operation. */
    static void init() {
        // the fields above register them
    }

    /** A read of the membership records: {@code getRecursive} for all of them. */
    public static void read(String action) {
        READS.labelValues(action).inc();
    }

    /** A membership write: {@code create}, {@code set} or {@code delete}. */
    public static void write(String action) {
        WRITES.labelValues(action).inc();
    }
}
