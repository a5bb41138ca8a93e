/**
 * The member core: {@link io.etcdj.server.etcdserver.EtcdServer} ties the Raft node to the state
 * machines. It owns the Raft loop (the one thread that drives the node, the WAL and the
 * snapshotter), the apply loop (the one thread that applies committed entries to the backend),
 * opening the data dir ({@code Storage}: bootstrap, restart, force-new-cluster), proposals and
 * their waiters, linearizable reads ({@code LinearizableReads}) and the failpoints. Around that
 * core, along etcd's seams: {@code MemberStatus}, {@code LeaderForwarding}, {@code SnapshotPolicy},
 * {@code ConfChanges}, {@code MemberAlarms}, {@code BackgroundJobs}, {@code ClusterChecks}; the
 * adapters {@code KvOps} ... {@code AuthOps} implement the API layer's operations with the
 * collaborators they are given, and make each request as the {@code api.Caller} passed to them.
 *
 * <p>Must not touch gRPC or HTTP (that is {@code api}, {@code gateway}, {@code embed}) nor the
 * wire format of peers (that is {@code transport}). Threads and locks: docs/CONCURRENCY.md.
 */
package io.etcdj.server.etcdserver;
