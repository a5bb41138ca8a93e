package io.etcdj.certs;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.util.IPAddress;

/**
 * What a certificate says, in the terms etcd cares about: names, validity, usages, key. Also
 * answers the questions Go's verifier asks (does it cover this host, does it allow this purpose).
 */
public record CertificateDetails(
        String subject,
        String commonName,
        String issuer,
        String serialNumber,
        Instant notBefore,
        Instant notAfter,
        List<String> dnsNames,
        List<String> ipAddresses,
        List<String> emailAddresses,
        List<KeyUsage> keyUsages,
        List<String> extendedKeyUsages,
        boolean certificateAuthority,
        String publicKey,
        String signatureAlgorithm,
        String sha256Fingerprint) {

    private static final int SAN_EMAIL = 1;
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;

    public static CertificateDetails of(X509Certificate certificate) {
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        List<String> emails = new ArrayList<>();
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names != null) {
                for (List<?> name : names) {
                    int type = (Integer) name.get(0);
                    String value = String.valueOf(name.get(1));
                    switch (type) {
                        case SAN_DNS -> dns.add(value);
                        case SAN_IP -> ips.add(canonicalIp(value));
                        case SAN_EMAIL -> emails.add(value);
                        default -> { }
                    }
                }
            }
        } catch (CertificateParsingException e) {
            throw new CertsException("x509: cannot parse subject alternative names: " + PemFiles.reason(e));
        }
        List<KeyUsage> usages = new ArrayList<>();
        boolean[] bits = certificate.getKeyUsage();
        if (bits != null) {
            for (KeyUsage usage : KeyUsage.values()) {
                if (usage.jdkIndex() < bits.length && bits[usage.jdkIndex()]) {
                    usages.add(usage);
                }
            }
        }
        List<String> purposes = new ArrayList<>();
        try {
            List<String> oids = certificate.getExtendedKeyUsage();
            if (oids != null) {
                for (String oid : oids) {
                    ExtendedKeyUsage known = ExtendedKeyUsage.byOid(oid);
                    purposes.add(known == null ? oid : known.displayName());
                }
            }
        } catch (CertificateParsingException e) {
            throw new CertsException("x509: cannot parse extended key usage: " + PemFiles.reason(e));
        }
        String key;
        try {
            key = KeySpec.of(certificate.getPublicKey()).toString();
        } catch (IllegalArgumentException e) {
            key = certificate.getPublicKey().getAlgorithm();
        }
        return new CertificateDetails(
                certificate.getSubjectX500Principal().getName(),
                commonNameOf(certificate),
                certificate.getIssuerX500Principal().getName(),
                certificate.getSerialNumber().toString(16),
                certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant(),
                List.copyOf(dns), List.copyOf(ips), List.copyOf(emails), List.copyOf(usages), List.copyOf(purposes),
                certificate.getBasicConstraints() >= 0,
                key,
                certificate.getSigAlgName(),
                fingerprint(certificate));
    }

    /** SHA-256 of the DER encoding, as colon-separated upper-case hex (openssl's format). */
    public static String fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot fingerprint certificate", e);
        }
    }

    /** The subject's (first) common name, or "" when there is none; with --client-cert-auth, the etcd user. */
    static String commonNameOf(X509Certificate certificate) {
        RDN[] names = X500Name
                .getInstance(certificate.getSubjectX500Principal().getEncoded())
                .getRDNs(BCStyle.CN);
        if (names.length == 0) {
            return "";
        }
        ASN1Encodable value = names[0].getFirst().getValue();
        return value instanceof ASN1String text ? text.getString()
                : IETFUtils.valueToString(value);
    }

    public boolean isExpiredAt(Instant at) {
        return !at.isBefore(notAfter);
    }

    public boolean isNotYetValidAt(Instant at) {
        return at.isBefore(notBefore);
    }

    /**
     * Would Go's {@code VerifyHostname} accept this host? IP literals match IP SANs; names match
     * DNS SANs case-insensitively, with a wildcard standing for exactly one leftmost label. As in Go
     * 1.15 and later, the common name is not consulted.
     */
    public boolean coversHost(String host) {
        String candidate = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (IPAddress.isValid(candidate)) {
            String wanted = canonicalIp(candidate);
            return ipAddresses.contains(wanted);
        }
        String wanted = candidate.toLowerCase(Locale.ROOT).replaceAll("\\.$", "");
        for (String name : dnsNames) {
            String pattern = name.toLowerCase(Locale.ROOT).replaceAll("\\.$", "");
            if (pattern.equals(wanted)) {
                return true;
            }
            if (pattern.startsWith("*.")) {
                int dot = wanted.indexOf('.');
                if (dot > 0 && wanted.substring(dot + 1).equals(pattern.substring(2))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** All names the certificate is valid for, for error messages. */
    public List<String> allNames() {
        List<String> all = new ArrayList<>(dnsNames);
        all.addAll(ipAddresses);
        return all;
    }

    /** Go's rule: no extended key usage extension, or "any", allows every purpose. */
    public boolean allows(ExtendedKeyUsage purpose) {
        return extendedKeyUsages.isEmpty() || extendedKeyUsages.contains(purpose.displayName())
                || extendedKeyUsages.contains(ExtendedKeyUsage.ANY.displayName());
    }

    static String canonicalIp(String literal) {
        try {
            // A literal never triggers a DNS lookup.
            return InetAddress.getByName(literal).getHostAddress();
        } catch (UnknownHostException e) {
            return literal;
        }
    }
}
