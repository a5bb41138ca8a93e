/**
 * Text forms that etcd's Go tools print and that every module of ours prints the same way
 * (etcdctl, etcdutl, the server's logs, the launcher). Owns formatting only: no I/O, no gRPC.
 */
package io.etcdj.format;
