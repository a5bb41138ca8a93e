package io.etcdj.launcher.process;

import java.nio.file.Path;

/**
 * Certificate files for one member (server and peer) plus the shared CA, as etcd's TLS flags
 * take them.
 */
public record TlsFiles(Path caCert, Path serverCert, Path serverKey, Path peerCert, Path peerKey) {}
