/**
 * Integration tests of the etcd server: real processes (ours and the real etcd 3.4) on 127.0.0.1, driven
 * by the real {@code etcdctl}, by jetcd, by the generated gRPC stubs and over the HTTP gateway.
 *
 * <p>Members, clusters, ports, temp dirs and waits come from the test-harness module
 * ({@code io.etcdj.harness}: {@code EtcdProcess}, {@code ProcessCluster}, {@code EtcdClusterExtension},
 * {@code Eventually}). Owns what only the server's tests need: {@link io.etcdj.server.it.InProcessEtcd}
 * (a member in this JVM), {@link io.etcdj.server.it.ProxyProcess} (gateway and gRPC proxy processes), the
 * {@link io.etcdj.server.it.Etcdctl} runner, and the differential machinery
 * ({@link io.etcdj.server.it.Differential}, {@link io.etcdj.server.it.ResponseNormalizer},
 * {@link io.etcdj.server.it.GrpcEndpoint}, {@link io.etcdj.server.it.WatchSession}).
 *
 * <p>Must not touch server internals: everything here talks to the server through its client port,
 * except {@link io.etcdj.server.it.InProcessEtcd}, which only calls {@code Member.start} and
 * {@code close}. Every process and temp dir started here is removed again, also when a test fails.
 * No test asserts on elapsed time; waits are bounded polls that report what they saw.
 */
package io.etcdj.server.it;
