package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;

/**
 * etcd 3.4's etcd_debugging_store_* families, which count its v2 store. etcd 3.4 keeps the
 * membership in that store; here they count the same operations on our membership records
 * (getRecursive when the members are loaded, create/set/delete when one is added, changed or
 * removed). No v2 API is served, so no v2 watcher or TTL key ever exists: those stay 0.
 */
public final class V2StoreMetrics {
    private final Counter reads;
    private final Counter writes;

    /** Registers the families in the member's registry, so they are exported before the first membership operation. */
    V2StoreMetrics(Metrics m) {
        reads = m.counter("etcd_debugging_store_reads_total",
                "Total number of reads action by (get/getRecursive), local to this member.", "action");
        writes = m.counter("etcd_debugging_store_writes_total",
                "Total number of writes (e.g. set/compareAndDelete) seen by this member.", "action");
        m.counter("etcd_debugging_store_expires_total", "Total number of expired keys.");
        m.counter("etcd_debugging_store_watch_requests_total", "Total number of incoming watch requests (new or reestablished).");
        m.gauge("etcd_debugging_store_watchers", "Count of currently active watchers.");
    }

    /** Instruments that count into a registry of their own, for membership records outside a member (tests, tools). */
    public static V2StoreMetrics unexported() {
        return new Metrics().v2store;
    }

    /** A read of the membership records: {@code getRecursive} for all of them. */
    public void read(String action) {
        reads.labelValues(action).inc();
    }

    /** A membership write: {@code create}, {@code set} or {@code delete}. */
    public void write(String action) {
        writes.labelValues(action).inc();
    }
}
