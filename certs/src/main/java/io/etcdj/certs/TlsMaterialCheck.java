package io.etcdj.certs;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks a member's or client's TLS files before they are used, so a bad file is reported at
 * start-up with one clear line naming it rather than as a failed handshake later:
 *
 * <pre>{@code
 * CheckedTlsMaterial material = TlsMaterialCheck.of(new TlsFiles(certFile, keyFile, trustedCaFile))
 *     .purpose(TlsPurpose.SERVER).hosts(List.of("127.0.0.1")).check();   // throws TlsMaterialException
 * }</pre>
 *
 * Checks, in order: each file is readable PEM; the key matches the certificate; the certificate
 * is inside its validity period; its extended key usages allow the purpose; its alternative names
 * cover every given host; and, when {@link #requireSignedByTrustedCa} is set, PKIX validation of
 * the chain against the trusted CA file. Immutable; each setter returns a copy.
 */
public final class TlsMaterialCheck {
    /** How close to expiry a certificate must be to earn a warning. */
    public static final Duration EXPIRY_WARNING = Duration.ofDays(30);

    private final TlsFiles files;
    private final TlsPurpose purpose;
    private final List<String> hosts;
    private final boolean requireSignedByTrustedCa;
    private final Clock clock;

    private TlsMaterialCheck(TlsFiles files, TlsPurpose purpose, List<String> hosts,
            boolean requireSignedByTrustedCa, Clock clock) {
        this.files = Objects.requireNonNull(files);
        this.purpose = purpose;
        this.hosts = List.copyOf(hosts);
        this.requireSignedByTrustedCa = requireSignedByTrustedCa;
        this.clock = clock;
    }

    public static TlsMaterialCheck of(TlsFiles files) {
        return new TlsMaterialCheck(files, null, List.of(), false, Clock.systemUTC());
    }

    /** Requires the extended key usages of a purpose; none are required by default. */
    public TlsMaterialCheck purpose(TlsPurpose value) {
        return new TlsMaterialCheck(files, value, hosts, requireSignedByTrustedCa, clock);
    }

    /** Hosts (IP literals or DNS names) the certificate must be valid for. */
    public TlsMaterialCheck hosts(List<String> value) {
        return new TlsMaterialCheck(files, purpose, value, requireSignedByTrustedCa, clock);
    }

    /**
     * Also requires that a CA in the trusted CA file signed the certificate. Off by default: a
     * member's --trusted-ca-file names the CA of its clients, which need not be its own.
     */
    public TlsMaterialCheck requireSignedByTrustedCa(boolean value) {
        return new TlsMaterialCheck(files, purpose, hosts, value, clock);
    }

    public TlsMaterialCheck clock(Clock value) {
        return new TlsMaterialCheck(files, purpose, hosts, requireSignedByTrustedCa, value);
    }

    /** Runs the checks; throws {@link TlsMaterialException} naming the first bad file. */
    public CheckedTlsMaterial check() {
        Path certFile = files.certFile();
        List<X509Certificate> chain = PemFiles.readCertificates(certFile);
        PrivateKey key = PemFiles.readPrivateKey(files.keyFile());
        List<X509Certificate> trusted = files.trustedCertificates();
        X509Certificate leaf = chain.get(0);
        if (!KeyMatch.matches(leaf, key)) {
            throw KeyMatch.mismatch(certFile, files.keyFile());
        }
        Instant now = clock.instant();
        CertificateDetails details = CertificateDetails.of(leaf);
        if (details.isExpiredAt(now) || details.isNotYetValidAt(now)) {
            throw new TlsMaterialException(certFile, ChainValidator.expired(leaf, now));
        }
        requireUsableFor(certFile, leaf, purpose, hosts);
        if (requireSignedByTrustedCa && files.trustedCaFile() != null) {
            ChainValidator.Result result = ChainValidator.validate(chain, trusted, now);
            if (!result.valid()) {
                throw new TlsMaterialException(certFile, result.problem() + " (trusted CA file " + files.trustedCaFile() + ")");
            }
        }
        List<String> warnings = new ArrayList<>();
        expiryWarning(certFile, leaf, now).ifPresent(warnings::add);
        if (files.trustedCaFile() != null) {
            for (X509Certificate ca : trusted) {
                if (!now.isBefore(ca.getNotAfter().toInstant())) {
                    warnings.add(files.trustedCaFile() + ": CA certificate \"" + CertificateDetails.of(ca).commonName()
                            + "\" has expired (" + ca.getNotAfter().toInstant() + ")");
                } else {
                    expiryWarning(files.trustedCaFile(), ca, now).ifPresent(warnings::add);
                }
            }
        }
        return new CheckedTlsMaterial(chain, key, trusted, warnings);
    }

    /**
     * Throws unless the certificate's extended key usages allow {@code purpose} (null: any) and its
     * alternative names cover every host, with Go's texts.
     */
    public static void requireUsableFor(Path certFile, X509Certificate certificate, TlsPurpose purpose,
            List<String> hosts) {
        CertificateDetails details = CertificateDetails.of(certificate);
        if (purpose != null) {
            for (ExtendedKeyUsage needed : purpose.required()) {
                if (!details.allows(needed)) {
                    throw new TlsMaterialException(certFile, "x509: certificate specifies an incompatible key usage: "
                            + purpose.name().toLowerCase(Locale.ROOT) + " use needs \"" + needed.displayName()
                            + "\", certificate has " + quoted(details.extendedKeyUsages()));
                }
            }
        }
        for (String host : hosts) {
            if (!details.coversHost(host)) {
                throw new TlsMaterialException(certFile, hostProblem(details, host));
            }
        }
    }

    /** A warning when the certificate expires within {@link #EXPIRY_WARNING}. */
    public static Optional<String> expiryWarning(Path file, X509Certificate certificate, Instant now) {
        Instant notAfter = certificate.getNotAfter().toInstant();
        if (now.isBefore(notAfter) && now.plus(EXPIRY_WARNING).isAfter(notAfter)) {
            long days = Duration.between(now, notAfter).toDays();
            return Optional.of(file + ": certificate expires in " + days + (days == 1 ? " day" : " days")
                    + " (" + notAfter + ")");
        }
        return Optional.empty();
    }

    /** Go's texts for a host the certificate does not name. */
    static String hostProblem(CertificateDetails details, String host) {
        List<String> names = details.allNames();
        if (names.isEmpty()) {
            return "x509: certificate is not valid for any names, but wanted to match " + host;
        }
        return "x509: certificate is valid for " + String.join(", ", names) + ", not " + host;
    }

    private static String quoted(List<String> values) {
        return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", ", "[", "]"));
    }
}
