package io.etcdj.certs;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * TLS material that passed {@link TlsMaterialCheck}: the certificate chain (leaf first), its key,
 * the trusted CA certificates (may be empty), and warnings worth logging (e.g. expiring soon).
 */
public record CheckedTlsMaterial(List<X509Certificate> certificateChain, PrivateKey privateKey,
        List<X509Certificate> trustedCertificates, List<String> warnings) {

    public CheckedTlsMaterial {
        certificateChain = List.copyOf(certificateChain);
        trustedCertificates = List.copyOf(trustedCertificates);
        warnings = List.copyOf(warnings);
    }

    public X509Certificate certificate() {
        return certificateChain.get(0);
    }
}
