/**
 * Integration tests of the etcd server: real processes (ours and the real etcd 3.4) on 127.0.0.1, driven
 * by the real {@code etcdctl}, by jetcd, by the generated gRPC stubs and over the HTTP gateway.
 *
 * <p>Owns the test-cluster abstraction ({@link io.etcdj.server.it.EtcdMember} with
 * {@link io.etcdj.server.it.EtcdProcess} and {@link io.etcdj.server.it.InProcessEtcd} behind it, exposed
 * by {@link io.etcdj.server.it.EtcdClusterExtension}; {@code ProcessCluster} for multi-member clusters),
 * the {@link io.etcdj.server.it.Etcdctl} runner, and the differential machinery
 * ({@link io.etcdj.server.it.Differential}, {@link io.etcdj.server.it.ResponseNormalizer},
 * {@link io.etcdj.server.it.GrpcEndpoint}, {@link io.etcdj.server.it.WatchSession}).
 *
 * <p>Must not touch server internals: everything here talks to the server through its client port,
 * except {@link io.etcdj.server.it.InProcessEtcd}, which only calls {@code Member.start} and
 * {@code close}. Every process and temp dir started here is removed again, also when a test fails.
 * No test asserts on elapsed time; waits are bounded loops that report what they saw.
 */
package io.etcdj.server.it;
