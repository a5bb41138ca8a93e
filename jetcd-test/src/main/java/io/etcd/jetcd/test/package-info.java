/**
 * jetcd-test's JUnit 5 extension and its {@code cluster://NAME} name resolver, on etcdj's
 * embedded members: a project swaps the io.etcd:jetcd-test dependency for io.etcdj:jetcd-test and
 * its tests run without Docker.
 */
package io.etcd.jetcd.test;
