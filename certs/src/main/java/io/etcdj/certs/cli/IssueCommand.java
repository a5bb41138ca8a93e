package io.etcdj.certs.cli;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.ExtendedKeyUsage;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.certs.SubjectName;
import io.etcdj.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code etcd-certs issue server|peer|client}: one certificate signed by an existing CA. */
@Command(name = "issue", description = "Issue a server, peer or client certificate signed by a CA: NAME.pem and NAME-key.pem.")
final class IssueCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "server|peer|client",
            description = "server: --cert-file (server auth); peer: --peer-cert-file (server and client auth); "
                    + "client: etcdctl --cert (client auth; the CN is the etcd user under --client-cert-auth).")
    String kind;

    @Option(names = "--cn", paramLabel = "NAME", required = true, description = "Common name, e.g. the member name or the etcd user.")
    String commonName;

    @Option(names = "--hosts", paramLabel = "HOST[,HOST...]",
            description = "IP addresses and DNS names the certificate is valid for (repeatable, comma-separated).")
    List<String> hosts;

    @Option(names = {"--org", "-O"}, paramLabel = "ORG", description = "Organization (O) of the subject.")
    String organization;

    @Option(names = "--validity", paramLabel = "DURATION", defaultValue = "8760h", converter = DurationConverter.class,
            description = "Lifetime, e.g. 8760h, 365d, 1y (default: ${DEFAULT-VALUE}); never beyond the CA's.")
    Duration validity;

    @Option(names = "--client-auth",
            description = "server only: also allow client authentication. etcd's HTTP gateway dials its own client "
                    + "port with --cert-file, so with --client-cert-auth the server certificate needs it.")
    boolean alsoClientAuth;

    @Option(names = "--ca-cert", paramLabel = "FILE", defaultValue = "ca.pem", description = "CA certificate (default: ${DEFAULT-VALUE}).")
    Path caCert;

    @Option(names = "--ca-key", paramLabel = "FILE", defaultValue = "ca-key.pem", description = "CA key (default: ${DEFAULT-VALUE}).")
    Path caKey;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".", description = "Output directory (default: current directory).")
    Path out;

    @Option(names = "--name", paramLabel = "BASE", description = "Base file name (default: the common name).")
    String name;

    @Option(names = "--force", description = "Replace existing files.")
    boolean force;

    @Mixin
    KeyOptions key;

    @Override
    public Integer call() {
        CertificateRequest request = template().keySpec(key.keySpec()).validity(validity).hosts(Hosts.split(hosts));
        if (organization != null) {
            request = request.name(SubjectName.organization(organization));
        }
        String base = name != null ? name : commonName;
        Path cert = out.resolve(base + ".pem");
        Path keyFile = out.resolve(base + "-key.pem");
        OutputFiles.refuseOverwrite(List.of(cert, keyFile), force);
        CertificateAuthority ca = CertificateAuthority.load(caCert, caKey);
        IssuedCertificate issued = ca.issue(request);
        issued.writePem(cert, keyFile, key.keyFormat());
        PrintWriter printer = spec.commandLine().getOut();
        printer.println("Wrote " + cert + " (" + kind.toLowerCase(Locale.ROOT) + " certificate for \"" + commonName + "\")");
        printer.println("Wrote " + keyFile + " (key, mode 0600)");
        if (!request.hasAlternativeNames() && !kind.equalsIgnoreCase("client")) {
            spec.commandLine().getErr().println("Warning: no --hosts: clients that verify the host name will reject "
                    + cert);
        }
        return ExitCodes.SUCCESS;
    }

    private CertificateRequest template() {
        switch (kind.toLowerCase(Locale.ROOT)) {
            case "server":
                CertificateRequest server = CertificateRequest.server(commonName);
                return alsoClientAuth
                        ? server.extendedKeyUsages(EnumSet.of(ExtendedKeyUsage.SERVER_AUTH, ExtendedKeyUsage.CLIENT_AUTH))
                        : server;
            case "peer":
                return CertificateRequest.peer(commonName);
            case "client":
                return CertificateRequest.client(commonName);
            default:
                throw new IllegalArgumentException("invalid certificate kind \"" + kind + "\" (use server, peer or client)");
        }
    }
}
