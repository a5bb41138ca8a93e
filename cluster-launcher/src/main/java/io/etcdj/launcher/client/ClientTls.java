package io.etcdj.launcher.client;

import java.nio.file.Path;

/** The CA and client certificate the launcher uses to reach members of a TLS cluster. */
public record ClientTls(Path caCert, Path clientCert, Path clientKey) {}
