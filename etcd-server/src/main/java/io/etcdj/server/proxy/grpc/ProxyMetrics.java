package io.etcdj.server.proxy.grpc;

import io.etcdj.server.metrics.GrpcProxyMetrics;

/** The proxy's Prometheus metrics, with etcd's names (process-wide, in the member's registry), served on --metrics-addr. */
final class ProxyMetrics {

    void cacheHit() {
        GrpcProxyMetrics.CACHE_HITS.inc();
    }

    void cacheMiss() {
        GrpcProxyMetrics.CACHE_MISSES.inc();
    }

    void cacheKeys(int n) {
        GrpcProxyMetrics.CACHE_KEYS.set(n);
    }

    void eventsCoalesced(long n) {
        GrpcProxyMetrics.EVENTS_COALESCING.inc(n);
    }

    void watchersCoalescing(long delta) {
        GrpcProxyMetrics.WATCHERS_COALESCING.inc(delta);
    }

    String render() {
        return GrpcProxyMetrics.render();
    }
}
