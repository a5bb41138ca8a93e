/** The server's structured (JSON lines) logger on stderr, in the shape of etcd's zap logs. */
package io.etcdj.server.log;
