package io.etcdj.server.config;

import java.nio.file.Path;

/**
 * One side's transport security flags as given: the client side ({@code --cert-file},
 * {@code --key-file}, {@code --trusted-ca-file}, {@code --client-cert-auth}, {@code --auto-tls})
 * or the peer side (the same with {@code --peer-}), with the checks on certificates clients
 * present ({@link CertChecks}), and the pair the member presents when it dials that side itself
 * ({@code --peer-client-cert-file}, {@code --peer-client-key-file}, on the client side
 * {@code --client-cert-file}, {@code --client-key-file}; null: the side's own certificate). Paths are null when the flag is empty. Which
 * files are finally used (given ones or generated ones) is decided when the member starts.
 */
public record TransportSecurity(Path certFile, Path keyFile, Path trustedCaFile, boolean clientCertAuth,
                                boolean autoTls, CertChecks checks, Path dialCertFile, Path dialKeyFile) {

    public static final TransportSecurity NONE = new TransportSecurity(null, null, null, false, false, CertChecks.NONE, null, null);

    public TransportSecurity(Path certFile, Path keyFile, Path trustedCaFile, boolean clientCertAuth, boolean autoTls,
                             CertChecks checks) {
        this(certFile, keyFile, trustedCaFile, clientCertAuth, autoTls, checks, null, null);
    }

    /** Either half of a certificate/key pair was given. */
    public boolean hasCertificate() {
        return certFile != null || keyFile != null;
    }

    /**
     * Whether connecting clients must present a certificate. As in etcd, a trusted CA file alone
     * turns verification on, not only the explicit client-cert-auth flag.
     */
    public boolean verifiesClients() {
        return clientCertAuth || trustedCaFile != null;
    }

    static Path path(String flagValue) {
        return flagValue == null || flagValue.isBlank() ? null : Path.of(flagValue.trim());
    }
}
