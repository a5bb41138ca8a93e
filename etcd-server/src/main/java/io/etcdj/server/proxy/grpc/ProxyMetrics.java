package io.etcdj.server.proxy.grpc;

import io.etcdj.server.metrics.GrpcProxyMetrics;
import io.etcdj.server.metrics.Metrics;

/** The proxy's Prometheus metrics, with etcd's names, in a registry of its own; served on --metrics-addr. */
final class ProxyMetrics {
    private final GrpcProxyMetrics families = new Metrics().proxy;

    void cacheHit() {
        families.cacheHits.inc();
    }

    void cacheMiss() {
        families.cacheMisses.inc();
    }

    void cacheKeys(int n) {
        families.cacheKeys.set(n);
    }

    void eventsCoalesced(long n) {
        families.eventsCoalescing.inc(n);
    }

    void watchersCoalescing(long delta) {
        families.watchersCoalescing.inc(delta);
    }

    String render() {
        return families.render();
    }
}
