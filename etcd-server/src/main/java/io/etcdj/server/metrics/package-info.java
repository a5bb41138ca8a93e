/**
 * The Prometheus exposition on /metrics with etcd's metric names: counters, gauges and histograms
 * the member updates, and the gauges it reads at scrape time ({@link io.etcdj.server.metrics.Metrics.Gauges}).
 */
package io.etcdj.server.metrics;
