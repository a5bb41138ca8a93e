package io.etcdj.certs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.util.IPAddress;

/**
 * What a new certificate should say: subject, alternative names, validity, key, usages. Immutable;
 * every {@code with}-style method returns a copy, so a request can be shared as a template:
 *
 * <pre>{@code
 * CertificateRequest.server("infra0").ip("127.0.0.1").dns("localhost").validity(Duration.ofDays(365))
 * }</pre>
 *
 * <p>The four factories set the usages etcd needs: a server certificate authenticates the server
 * (TLS web server), a client certificate the client, a peer certificate both (members dial each
 * other with it), and a CA certificate may sign other certificates.
 */
public record CertificateRequest(
        String commonName,
        List<SubjectName> names,
        List<String> ipAddresses,
        List<String> dnsNames,
        List<String> emailAddresses,
        Duration validity,
        Instant notBefore,
        KeySpec keySpec,
        Set<KeyUsage> keyUsages,
        Set<ExtendedKeyUsage> extendedKeyUsages,
        boolean certificateAuthority,
        int maxPathLength) {

    /** A 365-day year, as etcd's --self-signed-cert-validity and cfssl's "8760h" count it. */
    public static final Duration YEAR = Duration.ofDays(365);
    public static final Duration DEFAULT_VALIDITY = YEAR;
    /** cfssl's default CA lifetime ("43800h"). */
    public static final Duration DEFAULT_CA_VALIDITY = YEAR.multipliedBy(5);
    /** No path length constraint on a CA. */
    public static final int UNLIMITED_PATH = -1;

    private static final Pattern DNS_NAME =
            Pattern.compile("^(\\*\\.)?[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\\.?$");

    public CertificateRequest {
        commonName = commonName == null ? "" : commonName;
        names = List.copyOf(names);
        ipAddresses = List.copyOf(ipAddresses);
        dnsNames = List.copyOf(dnsNames);
        emailAddresses = List.copyOf(emailAddresses);
        if (validity == null || validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity must be positive");
        }
        if (keySpec == null) {
            throw new IllegalArgumentException("key spec is required");
        }
        keyUsages = keyUsages.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(keyUsages));
        extendedKeyUsages = extendedKeyUsages.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(extendedKeyUsages));
    }

    private static CertificateRequest base(String commonName, Duration validity, Set<KeyUsage> keyUsages,
            Set<ExtendedKeyUsage> extendedKeyUsages, boolean certificateAuthority) {
        return new CertificateRequest(commonName, List.of(), List.of(), List.of(), List.of(), validity, null,
                KeySpec.DEFAULT, keyUsages, extendedKeyUsages, certificateAuthority, UNLIMITED_PATH);
    }

    /** A CA: may sign certificates and CRLs, valid five years by default. */
    public static CertificateRequest ca(String commonName) {
        return base(commonName, DEFAULT_CA_VALIDITY, EnumSet.of(KeyUsage.KEY_CERT_SIGN, KeyUsage.CRL_SIGN),
                Set.of(), true);
    }

    /** A member's client-facing certificate (--cert-file): TLS web server authentication. */
    public static CertificateRequest server(String commonName) {
        return leaf(commonName, EnumSet.of(ExtendedKeyUsage.SERVER_AUTH));
    }

    /** A member's peer certificate (--peer-cert-file): serves and dials, so server and client auth. */
    public static CertificateRequest peer(String commonName) {
        return leaf(commonName, EnumSet.of(ExtendedKeyUsage.SERVER_AUTH, ExtendedKeyUsage.CLIENT_AUTH));
    }

    /** A client certificate (etcdctl --cert); with --client-cert-auth its CN is the etcd user. */
    public static CertificateRequest client(String commonName) {
        return leaf(commonName, EnumSet.of(ExtendedKeyUsage.CLIENT_AUTH));
    }

    /** A leaf with no usages set yet; cfssl signing profiles fill them in. */
    public static CertificateRequest plain(String commonName) {
        return base(commonName, DEFAULT_VALIDITY, Set.of(), Set.of(), false);
    }

    private static CertificateRequest leaf(String commonName, Set<ExtendedKeyUsage> purposes) {
        return base(commonName, DEFAULT_VALIDITY,
                EnumSet.of(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT), purposes, false);
    }

    public CertificateRequest commonName(String value) {
        return new CertificateRequest(value, names, ipAddresses, dnsNames, emailAddresses, validity, notBefore,
                keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    public CertificateRequest name(SubjectName name) {
        if (name.isEmpty()) {
            return this;
        }
        return new CertificateRequest(commonName, append(names, name), ipAddresses, dnsNames, emailAddresses,
                validity, notBefore, keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    /** Adds an IP address SAN (IPv4 or IPv6 literal; never resolved). */
    public CertificateRequest ip(String address) {
        String literal = stripBrackets(address.trim());
        if (!IPAddress.isValid(literal)) {
            throw new IllegalArgumentException("invalid IP address \"" + address + "\"");
        }
        return new CertificateRequest(commonName, names, append(ipAddresses, literal), dnsNames, emailAddresses,
                validity, notBefore, keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    /** Adds a DNS name SAN; a leading {@code *.} makes it a wildcard. */
    public CertificateRequest dns(String name) {
        String trimmed = name.trim();
        if (!DNS_NAME.matcher(trimmed).matches()) {
            throw new IllegalArgumentException("invalid DNS name \"" + name + "\"");
        }
        return new CertificateRequest(commonName, names, ipAddresses, append(dnsNames, trimmed), emailAddresses,
                validity, notBefore, keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    public CertificateRequest email(String address) {
        String trimmed = address.trim();
        if (trimmed.indexOf('@') <= 0 || trimmed.contains(" ")) {
            throw new IllegalArgumentException("invalid email address \"" + address + "\"");
        }
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, append(emailAddresses, trimmed),
                validity, notBefore, keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    /** Adds a host the way cfssl reads its {@code hosts} list: IP literal, email, or DNS name. */
    public CertificateRequest host(String host) {
        String trimmed = host.trim();
        if (IPAddress.isValid(stripBrackets(trimmed)) || trimmed.matches("[0-9.]+")) {
            // All-digit dotted names are mistyped addresses, not host names: report them as such.
            return ip(trimmed);
        }
        return trimmed.contains("@") ? email(trimmed) : dns(trimmed);
    }

    public CertificateRequest hosts(Collection<String> hosts) {
        CertificateRequest result = this;
        for (String host : hosts) {
            if (!host.isBlank()) {
                result = result.host(host);
            }
        }
        return result;
    }

    public CertificateRequest validity(Duration value) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, value, notBefore,
                keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    /** Validity in 365-day years, as etcd's --self-signed-cert-validity. */
    public CertificateRequest validityYears(int years) {
        if (years < 1) {
            throw new IllegalArgumentException("validity in years must be at least 1");
        }
        return validity(YEAR.multipliedBy(years));
    }

    /** Fixes the start of validity; by default it is a minute before issuing, to absorb clock skew. */
    public CertificateRequest notBefore(Instant value) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, validity, value,
                keySpec, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    public CertificateRequest keySpec(KeySpec value) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, validity, notBefore,
                value, keyUsages, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    public CertificateRequest keyUsages(Set<KeyUsage> value) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, validity, notBefore,
                keySpec, value, extendedKeyUsages, certificateAuthority, maxPathLength);
    }

    public CertificateRequest extendedKeyUsages(Set<ExtendedKeyUsage> value) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, validity, notBefore,
                keySpec, keyUsages, value, certificateAuthority, maxPathLength);
    }

    /** Makes this a CA certificate (basic constraints CA:TRUE) with an optional path length limit. */
    public CertificateRequest certificateAuthority(boolean value, int pathLength) {
        return new CertificateRequest(commonName, names, ipAddresses, dnsNames, emailAddresses, validity, notBefore,
                keySpec, keyUsages, extendedKeyUsages, value, pathLength);
    }

    /** True when there is a subject alternative name of any kind. */
    public boolean hasAlternativeNames() {
        return !ipAddresses.isEmpty() || !dnsNames.isEmpty() || !emailAddresses.isEmpty();
    }

    private static String stripBrackets(String value) {
        return value.startsWith("[") && value.endsWith("]") ? value.substring(1, value.length() - 1) : value;
    }

    private static <T> List<T> append(List<T> list, T value) {
        List<T> copy = new ArrayList<>(list);
        if (!copy.contains(value)) {
            copy.add(value);
        }
        return copy;
    }
}
