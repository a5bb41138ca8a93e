/**
 * The {@code etcd} command: {@link io.etcdj.server.Main} parses the flags and runs an
 * {@link io.etcdj.server.embed.Member} until a signal or a fatal error. Nothing depends on this package.
 */
package io.etcdj.server;
