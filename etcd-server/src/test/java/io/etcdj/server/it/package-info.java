/**
 * Integration tests of the etcd server: real processes (ours and the real etcd) on 127.0.0.1, driven by
 * the real {@code etcdctl}, by jetcd and by the generated gRPC stubs.
 *
 * <p>Owns the test-cluster abstraction ({@link io.etcdj.server.it.EtcdMember}, {@link io.etcdj.server.it.EtcdProcess},
 * {@link io.etcdj.server.it.InProcessEtcd}, {@link io.etcdj.server.it.EtcdClusterExtension}), the
 * {@link io.etcdj.server.it.Etcdctl} runner and the response normaliser used by the differential tests.
 * Must not touch server internals: everything here talks to the server through its public ports, except
 * {@link io.etcdj.server.it.InProcessEtcd}, which only calls {@code Member.start} and {@code close}.
 * Every process and temp dir started here is removed again, also when a test fails.
 */
package io.etcdj.server.it;
