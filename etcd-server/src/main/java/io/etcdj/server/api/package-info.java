/**
 * etcd's gRPC services (KV, Watch, Lease, Cluster, Maintenance). Validates requests as etcd does,
 * maps every failure to gRPC in {@link io.etcdj.server.api.GrpcErrors}, and reaches the member
 * only through the small interfaces it owns ({@link io.etcdj.server.api.KvOperations},
 * {@link io.etcdj.server.api.LeaseOperations}, {@link io.etcdj.server.api.ClusterOperations},
 * {@link io.etcdj.server.api.MaintenanceOperations}, {@link io.etcdj.server.api.WatchOperations},
 * {@link io.etcdj.server.api.AuthOperations}), which the server implements: it never touches Raft,
 * storage or the server's classes. Who calls is resolved here, once per call
 * ({@link io.etcdj.server.api.Callers}), and passed into those interfaces as an
 * {@link io.etcdj.server.api.Caller}: the member never reads gRPC's Context.
 */
package io.etcdj.server.api;
