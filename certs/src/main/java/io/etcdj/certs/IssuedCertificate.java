package io.etcdj.certs;

import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A certificate with its private key and, when a CA signed it, the CA certificate. Immutable.
 * {@link #writePem} writes the pair as etcd's --cert-file/--key-file expect.
 */
public final class IssuedCertificate {
    private final X509Certificate certificate;
    private final PrivateKey privateKey;
    private final X509Certificate issuer;

    public IssuedCertificate(X509Certificate certificate, PrivateKey privateKey, X509Certificate issuer) {
        if (!KeyMatch.matches(certificate, privateKey)) {
            throw new CertsException("tls: private key does not match public key");
        }
        this.certificate = certificate;
        this.privateKey = privateKey;
        this.issuer = issuer;
    }

    /** A self-signed certificate, as etcd's --auto-tls makes: a new key, signed by itself. */
    public static IssuedCertificate selfSigned(CertificateRequest request) {
        return selfSigned(request, Clock.systemUTC());
    }

    static IssuedCertificate selfSigned(CertificateRequest request, Clock clock) {
        KeyPair keys = request.keySpec().generate();
        X509Certificate certificate = new CertificateSigner(clock).sign(request, keys.getPublic(), null, keys.getPrivate());
        return new IssuedCertificate(certificate, keys.getPrivate(), null);
    }

    /** Loads a certificate and its key from PEM files, checking that they belong together. */
    public static IssuedCertificate load(Path certificateFile, Path keyFile) {
        X509Certificate certificate = PemFiles.readCertificate(certificateFile);
        PrivateKey key = PemFiles.readPrivateKey(keyFile);
        if (!KeyMatch.matches(certificate, key)) {
            throw KeyMatch.mismatch(certificateFile, keyFile);
        }
        return new IssuedCertificate(certificate, key, null);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    public KeyPair keyPair() {
        return new KeyPair(certificate.getPublicKey(), privateKey);
    }

    /** The CA certificate that signed this one; empty when self-signed or loaded without it. */
    public Optional<X509Certificate> issuer() {
        return Optional.ofNullable(issuer);
    }

    /** This certificate followed by its issuer, when known. */
    public List<X509Certificate> chain() {
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(certificate);
        if (issuer != null) {
            chain.add(issuer);
        }
        return List.copyOf(chain);
    }

    public String certificatePem() {
        return PemFiles.certificatePem(certificate);
    }

    /** The key as PKCS#8 {@code PRIVATE KEY} PEM. */
    public String privateKeyPem() {
        return PemFiles.privateKeyPem(privateKey, KeyFormat.PKCS8);
    }

    public String privateKeyPem(KeyFormat format) {
        return PemFiles.privateKeyPem(privateKey, format);
    }

    /** Writes the certificate (0644) and the PKCS#8 key (0600). */
    public void writePem(Path certificateFile, Path keyFile) {
        writePem(certificateFile, keyFile, KeyFormat.PKCS8);
    }

    public void writePem(Path certificateFile, Path keyFile, KeyFormat format) {
        PemFiles.writePrivate(keyFile, privateKeyPem(format));
        PemFiles.writePublic(certificateFile, certificatePem());
    }

    @Override
    public String toString() {
        return "IssuedCertificate[" + certificate.getSubjectX500Principal().getName() + "]";
    }
}
