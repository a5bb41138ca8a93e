package io.etcdj.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Turns a {@link CertificateRequest} and a public key into a signed X.509 v3 certificate. The only
 * place that builds certificates, so every kind gets the same extensions: basic constraints and
 * key usage (critical), extended key usage, subject alternative names, subject and authority key
 * identifiers.
 */
final class CertificateSigner {
    /** Start validity a little in the past so a peer whose clock is slightly behind accepts it. */
    static final Duration BACKDATE = Duration.ofMinutes(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;

    CertificateSigner(Clock clock) {
        this.clock = clock;
    }

    /**
     * Signs {@code subjectKey} described by {@code request}. With a null {@code issuer} the
     * certificate is self-signed by {@code signingKey}.
     */
    X509Certificate sign(CertificateRequest request, PublicKey subjectKey, X509Certificate issuer,
            PrivateKey signingKey) {
        X500Name subject = subjectName(request);
        X500Name issuerName = issuer == null ? subject : X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded());
        Instant notBefore = request.notBefore() != null ? request.notBefore() : clock.instant().minus(BACKDATE);
        Instant notAfter = notBefore.plus(request.validity());
        if (issuer != null && notAfter.isAfter(issuer.getNotAfter().toInstant())) {
            // A certificate must not outlive its CA; clients would reject it once the CA expires anyway.
            notAfter = issuer.getNotAfter().toInstant();
        }
        BigInteger serial = new BigInteger(127, RANDOM).setBit(126);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuerName, serial,
                    Date.from(notBefore), Date.from(notAfter), subject, subjectKey);
            builder.addExtension(Extension.basicConstraints, true, basicConstraints(request));
            if (!request.keyUsages().isEmpty()) {
                int bits = 0;
                for (KeyUsage usage : request.keyUsages()) {
                    bits |= usage.bouncyCastleBit();
                }
                // qualified: BouncyCastle's KeyUsage extension; KeyUsage here is our enum
                builder.addExtension(Extension.keyUsage, true, new org.bouncycastle.asn1.x509.KeyUsage(bits));
            }
            if (!request.extendedKeyUsages().isEmpty()) {
                KeyPurposeId[] purposes = request.extendedKeyUsages().stream()
                        .sorted().map(ExtendedKeyUsage::purpose).toArray(KeyPurposeId[]::new);
                builder.addExtension(Extension.extendedKeyUsage, false,
                        // qualified: BouncyCastle's extension; ExtendedKeyUsage here is our enum
                        new org.bouncycastle.asn1.x509.ExtendedKeyUsage(purposes));
            }
            if (request.hasAlternativeNames()) {
                // RFC 5280: with an empty subject the alternative names carry the identity and are critical.
                builder.addExtension(Extension.subjectAlternativeName, subject.getRDNs().length == 0,
                        alternativeNames(request));
            }
            builder.addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(subjectKey));
            if (issuer != null) {
                builder.addExtension(Extension.authorityKeyIdentifier, false,
                        extensions.createAuthorityKeyIdentifier(issuer.getPublicKey()));
            }
            String algorithm = KeySpec.of(signingKey).signatureAlgorithm();
            ContentSigner signer = new JcaContentSignerBuilder(algorithm).build(signingKey);
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new CertsException("cannot sign certificate for \"" + request.commonName() + "\": "
                    + PemFiles.reason(e), e);
        }
    }

    static X500Name subjectName(CertificateRequest request) {
        X500NameBuilder name = new X500NameBuilder(BCStyle.INSTANCE);
        for (SubjectName part : request.names()) {
            add(name, BCStyle.C, part.country());
            add(name, BCStyle.ST, part.state());
            add(name, BCStyle.L, part.locality());
            add(name, BCStyle.O, part.organization());
            add(name, BCStyle.OU, part.organizationalUnit());
        }
        add(name, BCStyle.CN, request.commonName());
        return name.build();
    }

    private static void add(X500NameBuilder name, ASN1ObjectIdentifier type, String value) {
        if (!SubjectName.blank(value)) {
            name.addRDN(type, value);
        }
    }

    private static BasicConstraints basicConstraints(CertificateRequest request) {
        if (!request.certificateAuthority()) {
            return new BasicConstraints(false);
        }
        return request.maxPathLength() >= 0 ? new BasicConstraints(request.maxPathLength()) : new BasicConstraints(true);
    }

    static GeneralNames alternativeNames(CertificateRequest request) {
        List<GeneralName> names = new ArrayList<>();
        request.dnsNames().forEach(dns -> names.add(new GeneralName(GeneralName.dNSName, dns)));
        request.ipAddresses().forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
        request.emailAddresses().forEach(email -> names.add(new GeneralName(GeneralName.rfc822Name, email)));
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }
}
