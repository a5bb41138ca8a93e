package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;

/**
 * The gRPC proxy's families under etcd's names (etcd_grpc_proxy_*), in the registry of the
 * {@link Metrics} that holds them: a member exports them at zero, as etcd's members do (no proxy
 * runs inside a member); the proxy process counts into its own.
 */
public final class GrpcProxyMetrics {
    public final Gauge cacheHits;
    public final Gauge cacheMisses;
    public final Gauge cacheKeys;
    public final Counter eventsCoalescing;
    public final Gauge watchersCoalescing;
    private final Metrics metrics;

    GrpcProxyMetrics(Metrics m) {
        this.metrics = m;
        cacheHits = m.gauge("etcd_grpc_proxy_cache_hits_total", "Total number of cache hits");
        cacheMisses = m.gauge("etcd_grpc_proxy_cache_misses_total", "Total number of cache misses");
        cacheKeys = m.gauge("etcd_grpc_proxy_cache_keys_total", "Total number of keys/ranges cached");
        eventsCoalescing = m.counter("etcd_grpc_proxy_events_coalescing_total", "Total number of events coalescing");
        watchersCoalescing = m.gauge("etcd_grpc_proxy_watchers_coalescing_total", "Total number of current watchers coalescing");
    }

    /** The proxy's own families in the text format (its --metrics-addr endpoint). */
    public String render() {
        return Exposition.render(metrics, name -> name.startsWith("etcd_grpc_proxy_"));
    }
}
