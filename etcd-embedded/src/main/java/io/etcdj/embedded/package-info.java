/**
 * etcd clusters from Java code, for tests: {@link io.etcdj.embedded.EtcdCluster} starts 1..n
 * members of our etcd in the calling JVM (the default) or as child processes, on free ports of
 * 127.0.0.1, with data dirs in a temporary directory removed on close, optionally with TLS
 * certificates made for the run; {@link io.etcdj.embedded.EtcdExtension} does the same as a JUnit 5
 * extension. Nothing else is needed: no Docker, no etcd binary.
 */
package io.etcdj.embedded;
