/**
 * A small etcd v3 client over the generated gRPC stubs: endpoint list with fail-over, TLS, keep-alive,
 * deadlines, and auth-token acquisition and refresh.
 *
 * <p>It owns connection management and the mapping of gRPC failures to {@link io.etcdj.client.EtcdClientException}.
 * It must not print anything or know about command-line formats; callers observe failed calls through
 * {@link io.etcdj.client.CallListener}. It depends only on grpc-api, so any transport on the class path
 * (grpc-netty in etcdctl) carries the calls.
 */
package io.etcdj.client;
