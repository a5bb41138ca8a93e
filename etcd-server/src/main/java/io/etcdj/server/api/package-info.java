/**
 * etcd's gRPC services (KV, Watch, Lease, Cluster, Maintenance) over the server. Validates
 * requests as etcd does, maps every failure to gRPC in {@link io.etcdj.server.api.GrpcErrors},
 * and never touches Raft or storage directly: it goes through {@link io.etcdj.server.etcdserver.EtcdServer}.
 */
package io.etcdj.server.api;
