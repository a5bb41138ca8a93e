/**
 * The server's structured (JSON lines) logs in the shape of etcd's zap logs: a member's sink
 * ({@link io.etcdj.server.log.LogSink}, standard error by default) and the process's
 * ({@link io.etcdj.server.log.Log#get}).
 */
package io.etcdj.server.log;
