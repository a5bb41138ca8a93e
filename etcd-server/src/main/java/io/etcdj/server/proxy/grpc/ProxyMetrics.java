package io.etcdj.server.proxy.grpc;

import java.util.concurrent.atomic.AtomicLong;

/** The proxy's own Prometheus metrics, with etcd's names, served on --metrics-addr. */
final class ProxyMetrics {
    private final AtomicLong cacheHits = new AtomicLong();
    private final AtomicLong cacheMisses = new AtomicLong();
    private final AtomicLong cacheKeys = new AtomicLong();
    private final AtomicLong eventsCoalescing = new AtomicLong();
    private final AtomicLong watchersCoalescing = new AtomicLong();

    void cacheHit() {
        cacheHits.incrementAndGet();
    }

    void cacheMiss() {
        cacheMisses.incrementAndGet();
    }

    void cacheKeys(int n) {
        cacheKeys.set(n);
    }

    void eventsCoalesced(long n) {
        eventsCoalescing.addAndGet(n);
    }

    void watchersCoalescing(long delta) {
        watchersCoalescing.addAndGet(delta);
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        metric(sb, "etcd_grpc_proxy_cache_hits_total", "Total number of cache hits", "gauge", cacheHits.get());
        metric(sb, "etcd_grpc_proxy_cache_keys_total", "Total number of keys/ranges cached", "gauge", cacheKeys.get());
        metric(sb, "etcd_grpc_proxy_cache_misses_total", "Total number of cache misses", "gauge", cacheMisses.get());
        metric(sb, "etcd_grpc_proxy_events_coalescing_total", "Total number of events coalescing", "counter",
                eventsCoalescing.get());
        metric(sb, "etcd_grpc_proxy_watchers_coalescing_total", "Total number of current watchers coalescing", "gauge",
                watchersCoalescing.get());
        return sb.toString();
    }

    private static void metric(StringBuilder sb, String name, String help, String type, long value) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append(' ').append(value).append('\n');
    }
}
