/**
 * Running etcd members as operating-system processes: where their files go, which binary runs,
 * the command line each member gets, port checks, signals, and their log output.
 *
 * <p>Owns one process per {@link io.etcdj.launcher.process.MemberProcess}. It must not talk to
 * members over the network (that is {@code client}) nor decide cluster-wide policy (that is
 * {@code supervisor}).
 */
package io.etcdj.launcher.process;
