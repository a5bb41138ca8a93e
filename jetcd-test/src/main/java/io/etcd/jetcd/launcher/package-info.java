/**
 * The cluster type of jetcd's launcher ({@code io.etcd.jetcd.launcher.EtcdCluster}), kept here so
 * that tests written against jetcd-test compile unchanged; its members are etcdj's, not containers.
 */
package io.etcd.jetcd.launcher;
