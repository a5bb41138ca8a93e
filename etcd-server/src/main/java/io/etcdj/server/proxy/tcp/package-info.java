/**
 * {@code etcd gateway start}: etcd's L4 gateway, a TCP proxy that neither reads nor changes what
 * it forwards. Owns the listener, the endpoint list with its active/inactive state and the retry
 * monitor; must not parse etcd's protocol (that is {@code proxy.grpc}'s job).
 */
package io.etcdj.server.proxy.tcp;
