package io.etcdj.client;

import java.nio.file.Path;

/**
 * TLS material for client connections. Every path may be null; {@code skipVerify} accepts any server
 * certificate (testing only, like etcdctl's {@code --insecure-skip-tls-verify}).
 */
public record TlsOptions(Path caFile, Path certFile, Path keyFile, boolean skipVerify) {

    /** True when any TLS option was given, so the connection must use TLS. */
    public boolean requested() {
        return caFile != null || certFile != null || keyFile != null || skipVerify;
    }
}
