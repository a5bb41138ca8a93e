package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;

/**
 * The gRPC proxy's families under etcd's names (etcd_grpc_proxy_*). Process-wide, as in etcd,
 * whose members export them too (at zero: no proxy runs inside a member).
 */
public final class GrpcProxyMetrics {
    public static final Gauge CACHE_HITS = Metrics.gauge("etcd_grpc_proxy_cache_hits_total", "Total number of cache hits");
    public static final Gauge CACHE_MISSES = Metrics.gauge("etcd_grpc_proxy_cache_misses_total", "Total number of cache misses");
    public static final Gauge CACHE_KEYS = Metrics.gauge("etcd_grpc_proxy_cache_keys_total", "Total number of keys/ranges cached");
    public static final Counter EVENTS_COALESCING = Metrics.counter("etcd_grpc_proxy_events_coalescing_total",
            "Total number of events coalescing");
    public static final Gauge WATCHERS_COALESCING = Metrics.gauge("etcd_grpc_proxy_watchers_coalescing_total",
            "Total number of current watchers coalescing");

    private GrpcProxyMetrics() {
    }

    /** Loads the families (with Metrics). */
    static void init() {
        // the fields above register them
    }

    /** The proxy's own families in the text format (its --metrics-addr endpoint). */
    public static String render() {
        return Exposition.render(name -> name.startsWith("etcd_grpc_proxy_"));
    }
}
