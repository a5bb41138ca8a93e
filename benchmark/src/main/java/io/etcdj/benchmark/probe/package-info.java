/**
 * A measurement harness for the client port's transport: the same two unary KV methods served by
 * grpc-java's Netty server and by a handler written directly on Netty's HTTP/2 codec, so that
 * etcd's Go {@code benchmark} can measure what grpc-java's per-call layer costs on its own
 * (docs/benchmarks.md, "What grpc-java's server layer costs"). Nothing here is a member: the
 * answers come from memory, and the harness is never part of a server.
 */
package io.etcdj.benchmark.probe;
