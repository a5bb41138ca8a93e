/**
 * The etcd subcommands that run no member: {@code etcd gateway} and {@code etcd grpc-proxy}.
 * This package owns their dispatch from the etcd command and the cobra/pflag-style flag parsing
 * and help text both share (etcd builds these two with cobra, not with the flag package the
 * member's flags use). The proxies themselves live in {@code proxy.tcp} and {@code proxy.grpc};
 * nothing here may touch a member's storage, Raft or client listeners.
 */
package io.etcdj.server.proxy;
