package io.etcdj.certs;

import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * A CA that signs server, peer and client certificates:
 *
 * <pre>{@code
 * CertificateAuthority ca = CertificateAuthority.create(CertificateRequest.ca("etcd-ca"));
 * IssuedCertificate server = ca.issue(CertificateRequest.server("infra0").ip("127.0.0.1").dns("localhost"));
 * server.writePem(dir.resolve("infra0.pem"), dir.resolve("infra0-key.pem"));
 * ca.writePem(dir.resolve("ca.pem"), dir.resolve("ca-key.pem"));
 * }</pre>
 *
 * Immutable and safe to share between threads.
 */
public final class CertificateAuthority {
    private final IssuedCertificate self;
    private final Clock clock;

    private CertificateAuthority(IssuedCertificate self, Clock clock) {
        this.self = self;
        this.clock = clock;
    }

    /** A new self-signed root CA described by {@code request} (which is made a CA if it was not). */
    public static CertificateAuthority create(CertificateRequest request) {
        return create(request, Clock.systemUTC());
    }

    /** A new root CA with the given common name and the defaults of {@link CertificateRequest#ca}. */
    public static CertificateAuthority create(String commonName) {
        return create(CertificateRequest.ca(commonName));
    }

    static CertificateAuthority create(CertificateRequest request, Clock clock) {
        CertificateRequest asCa = request.certificateAuthority() ? request
                : request.certificateAuthority(true, CertificateRequest.UNLIMITED_PATH);
        if (asCa.keyUsages().isEmpty()) {
            asCa = asCa.keyUsages(CertificateRequest.ca("").keyUsages());
        }
        return new CertificateAuthority(IssuedCertificate.selfSigned(asCa, clock), clock);
    }

    /**
     * Loads a CA from its PEM certificate and key to sign with. Fails with the file named when either
     * is unreadable, they do not match, the certificate may not sign (not CA:TRUE), or it is outside
     * its validity period (everything it signed would be rejected).
     */
    public static CertificateAuthority load(Path certificateFile, Path keyFile) {
        IssuedCertificate loaded = IssuedCertificate.load(certificateFile, keyFile);
        X509Certificate certificate = loaded.certificate();
        if (certificate.getBasicConstraints() < 0) {
            throw new TlsMaterialException(certificateFile, "not a CA certificate (basic constraints CA:FALSE)");
        }
        Instant now = Instant.now();
        if (!now.isBefore(certificate.getNotAfter().toInstant()) || now.isBefore(certificate.getNotBefore().toInstant())) {
            throw new TlsMaterialException(certificateFile, ChainValidator.expired(certificate, now));
        }
        return new CertificateAuthority(loaded, Clock.systemUTC());
    }

    /** The same CA with another clock; tests use it to issue certificates in the past. */
    public CertificateAuthority withClock(Clock value) {
        return new CertificateAuthority(self, Objects.requireNonNull(value));
    }

    /** Issues a certificate with a new key of {@code request.keySpec()}. */
    public IssuedCertificate issue(CertificateRequest request) {
        KeyPair keys = request.keySpec().generate();
        return new IssuedCertificate(sign(request, keys.getPublic()), keys.getPrivate(), self.certificate());
    }

    /** Signs someone else's public key (e.g. from a CSR); the caller holds the private key. */
    public X509Certificate sign(CertificateRequest request, PublicKey subjectKey) {
        if (request.certificateAuthority()) {
            // An intermediate CA is allowed, but must respect this CA's own path length limit.
            int limit = self.certificate().getBasicConstraints();
            if (limit == 0) {
                throw new CertsException("CA \"" + commonName() + "\" has path length 0 and may not sign another CA");
            }
        }
        return new CertificateSigner(clock).sign(request, subjectKey, self.certificate(), self.privateKey());
    }

    public X509Certificate certificate() {
        return self.certificate();
    }

    /** The CA's own certificate and key. */
    public IssuedCertificate asIssued() {
        return self;
    }

    public String certificatePem() {
        return self.certificatePem();
    }

    public void writePem(Path certificateFile, Path keyFile) {
        self.writePem(certificateFile, keyFile);
    }

    public void writePem(Path certificateFile, Path keyFile, KeyFormat format) {
        self.writePem(certificateFile, keyFile, format);
    }

    private String commonName() {
        return self.certificate().getSubjectX500Principal().getName();
    }
}
