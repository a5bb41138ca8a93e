/**
 * {@code etcd grpc-proxy start}: etcd's stateless L7 proxy. Owns the upstream channel to the
 * cluster, the proxy's gRPC server, the KV proxy with its serializable-read cache, the watch
 * proxy that coalesces identical watchers onto one upstream watch, the --namespace key
 * prefixing, the --resolver-prefix registration, and a raw forwarder for every other service
 * (Lease, Maintenance, Auth, Lock, Election, Cluster). Must not touch a member's internals: it
 * talks to the cluster only over gRPC, as any client does.
 */
package io.etcdj.server.proxy.grpc;
