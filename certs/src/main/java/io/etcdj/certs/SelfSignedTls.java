package io.etcdj.certs;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code --auto-tls} and {@code --peer-auto-tls} need: a self-signed certificate for the
 * member's hosts in a directory of its own ({@code cert.pem}, {@code key.pem}), made the way etcd
 * makes it (organization "etcd", ECDSA P-521, key usages digital signature and key encipherment)
 * and kept across restarts: existing files are reused, as etcd does.
 */
public final class SelfSignedTls {
    public static final String CERT_FILE = "cert.pem";
    public static final String KEY_FILE = "key.pem";
    /** etcd's --self-signed-cert-validity default, in years. */
    public static final int DEFAULT_VALIDITY_YEARS = 1;

    private SelfSignedTls() {
    }

    /**
     * Returns the files in {@code directory}, creating them first if either is missing.
     *
     * @param hosts host names, IPs, {@code host:port} or URLs (e.g. the listen URLs); ports are dropped
     * @param validityYears etcd's --self-signed-cert-validity
     * @param purpose {@link TlsPurpose#PEER} adds client authentication so members can dial with it
     */
    public static TlsFiles ensure(Path directory, Collection<String> hosts, int validityYears, TlsPurpose purpose) {
        Path cert = directory.resolve(CERT_FILE);
        Path key = directory.resolve(KEY_FILE);
        if (Files.exists(cert) && Files.exists(key)) {
            return new TlsFiles(cert, key, null);
        }
        generate(hosts, validityYears, purpose).writePem(cert, key, KeyFormat.TRADITIONAL);
        return new TlsFiles(cert, key, null);
    }

    /** A new self-signed certificate for the hosts, not written anywhere. */
    public static IssuedCertificate generate(Collection<String> hosts, int validityYears, TlsPurpose purpose) {
        Set<ExtendedKeyUsage> purposes = purpose == TlsPurpose.SERVER
                ? EnumSet.of(ExtendedKeyUsage.SERVER_AUTH) : EnumSet.copyOf(purpose.required());
        CertificateRequest request = CertificateRequest.plain("")
                .name(SubjectName.organization("etcd"))
                .keySpec(KeySpec.ECDSA_P521)
                .keyUsages(EnumSet.of(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT))
                .extendedKeyUsages(purposes)
                .validityYears(validityYears)
                .hosts(hostNames(hosts));
        return IssuedCertificate.selfSigned(request);
    }

    /** Strips schemes, ports and brackets: {@code https://127.0.0.1:2379} becomes {@code 127.0.0.1}. */
    static List<String> hostNames(Collection<String> hosts) {
        Set<String> names = new LinkedHashSet<>();
        for (String raw : hosts) {
            String host = raw.trim();
            if (host.contains("://")) {
                host = URI.create(host).getHost();
            } else if (host.startsWith("[")) {
                host = host.substring(1, host.indexOf(']'));
            } else if (host.indexOf(':') == host.lastIndexOf(':') && host.contains(":")) {
                host = host.substring(0, host.indexOf(':'));
            }
            if (host != null && host.startsWith("[")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host != null && !host.isBlank()) {
                names.add(host);
            }
        }
        return new ArrayList<>(names);
    }
}
