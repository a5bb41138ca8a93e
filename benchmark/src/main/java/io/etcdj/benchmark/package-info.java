/**
 * A load generator for etcd v3 endpoints with the workloads of etcd's own benchmark tool
 * ({@code put}, {@code range}, {@code txn-put}, {@code watch-latency}).
 *
 * <p>It owns the client side only: channels, concurrent clients, latency recording and the
 * report. It talks to a server solely through the public gRPC API in {@code io.etcdj.api}, so it
 * measures the real etcd and ours in exactly the same way, and it must not depend on server
 * internals.
 *
 * <p>Threading: requests are sent with asynchronous stubs; a "client" is a chain of requests with
 * at most one outstanding at a time, driven from gRPC's completion callbacks ({@link LoadRunner}).
 * Statistics are computed after the run from the recorded latencies ({@link LatencyStats}).
 */
package io.etcdj.benchmark;
