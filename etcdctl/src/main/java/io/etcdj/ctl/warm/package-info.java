/**
 * The warm path: a per-user resident JVM that runs etcdctl and etcdutl command lines in-process for
 * the thin client bin/etcdctl and bin/etcdutl start (bin/warm-client.c), over a unix-domain socket
 * in a directory only that user can open.
 *
 * <p>Owns the socket protocol, the per-call streams (stdout, stderr, stdin read on demand), the
 * caller's signals, the choice of commands that must run in a process of their own, and the server's
 * life (idle exit, exit when the build or the JDK changed). It must not contain command logic: calls
 * go through {@link io.etcdj.ctl.cli.EtcdctlApp} and etcdutl's {@code Main.run} as a direct run does.
 */
package io.etcdj.ctl.warm;
