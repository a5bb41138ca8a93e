package io.etcdj.certs.cli;

import io.etcdj.certs.CertificateDetails;
import io.etcdj.certs.ChainValidator;
import io.etcdj.certs.KeyMatch;
import io.etcdj.certs.KeyUsage;
import io.etcdj.certs.PemFiles;
import io.etcdj.certs.TlsMaterialCheck;
import io.etcdj.certs.TlsMaterialException;
import io.etcdj.certs.TlsPurpose;
import io.etcdj.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code etcd-certs inspect FILE}: prints what a certificate says and, with --key/--ca/--host/
 * --purpose, checks it the way a member would at start-up. Exit 1 when expired or a check fails.
 */
@Command(name = "inspect",
        description = {"Show a PEM certificate: subject, SANs, issuer, validity, usages, SHA-256 fingerprint.",
            "Warns when it expires within 30 days; exits 1 when it has expired or a requested check fails."})
final class InspectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "PEM certificate file (all certificates in it are shown).")
    Path file;

    @Option(names = "--key", paramLabel = "KEYFILE", description = "Check that this private key matches the certificate.")
    Path key;

    @Option(names = "--ca", paramLabel = "CAFILE", description = "Check that a CA in this file signed the certificate (PKIX).")
    Path ca;

    @Option(names = "--host", paramLabel = "HOST[,HOST...]", description = "Check that the certificate is valid for these hosts.")
    List<String> hosts;

    @Option(names = "--purpose", paramLabel = "server|peer|client", description = "Check the extended key usages for this use.")
    String purpose;

    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Instant now = clock.instant();
        List<X509Certificate> certificates = PemFiles.readCertificates(file);
        for (int i = 0; i < certificates.size(); i++) {
            if (i > 0) {
                out.println();
            }
            print(out, CertificateDetails.of(certificates.get(i)), now);
        }
        X509Certificate leaf = certificates.get(0);
        CertificateDetails details = CertificateDetails.of(leaf);
        if (details.isExpiredAt(now) || details.isNotYetValidAt(now)) {
            throw new TlsMaterialException(file, ChainValidator.expired(leaf, now));
        }
        TlsMaterialCheck.expiryWarning(file, leaf, now).ifPresent(warning -> err.println("Warning: " + warning));
        runChecks(out, certificates, now);
        return ExitCodes.SUCCESS;
    }

    private void runChecks(PrintWriter out, List<X509Certificate> chain, Instant now) {
        if (key != null) {
            if (!KeyMatch.matches(chain.get(0), PemFiles.readPrivateKey(key))) {
                throw KeyMatch.mismatch(file, key);
            }
            out.println("Check: key " + key + " matches");
        }
        if (purpose != null || hosts != null) {
            TlsMaterialCheck.requireUsableFor(file, chain.get(0), purpose == null ? null : parsePurpose(), Hosts.split(hosts));
            if (purpose != null) {
                out.println("Check: usable for " + purpose.toLowerCase(Locale.ROOT));
            }
            if (hosts != null) {
                out.println("Check: valid for " + String.join(", ", Hosts.split(hosts)));
            }
        }
        if (ca != null) {
            ChainValidator.Result result = ChainValidator.validate(chain, PemFiles.readCertificates(ca), now);
            if (!result.valid()) {
                throw new TlsMaterialException(file, result.problem() + " (CA file " + ca + ")");
            }
            out.println("Check: signed by a CA in " + ca);
        }
    }

    private TlsPurpose parsePurpose() {
        try {
            return TlsPurpose.valueOf(purpose.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid --purpose \"" + purpose + "\" (use server, peer or client)");
        }
    }

    private static void print(PrintWriter out, CertificateDetails details, Instant now) {
        row(out, "Subject", details.subject());
        row(out, "Issuer", details.issuer());
        row(out, "Serial", details.serialNumber());
        row(out, "Not before", details.notBefore().toString());
        row(out, "Not after", details.notAfter() + " (" + remaining(details, now) + ")");
        row(out, "DNS names", join(details.dnsNames()));
        row(out, "IP addresses", join(details.ipAddresses()));
        if (!details.emailAddresses().isEmpty()) {
            row(out, "Emails", join(details.emailAddresses()));
        }
        row(out, "Key usages", join(details.keyUsages().stream().map(KeyUsage::displayName).toList()));
        row(out, "Ext usages", join(details.extendedKeyUsages()));
        row(out, "CA", String.valueOf(details.certificateAuthority()));
        row(out, "Public key", details.publicKey());
        row(out, "Signature", details.signatureAlgorithm());
        row(out, "SHA-256", details.sha256Fingerprint());
    }

    private static String remaining(CertificateDetails details, Instant now) {
        if (details.isExpiredAt(now)) {
            return "EXPIRED";
        }
        if (details.isNotYetValidAt(now)) {
            return "NOT YET VALID";
        }
        long days = Duration.between(now, details.notAfter()).toDays();
        return days + (days == 1 ? " day left" : " days left");
    }

    private static String join(List<String> values) {
        return values.isEmpty() ? "(none)" : String.join(", ", values);
    }

    private static void row(PrintWriter out, String label, String value) {
        out.printf("%-13s %s%n", label + ":", value);
    }
}
