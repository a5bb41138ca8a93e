package io.etcdj.certs.cli;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.ClusterCertificates;
import io.etcdj.certs.ClusterTlsLayout;
import io.etcdj.certs.TlsFiles;
import io.etcdj.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code etcd-certs cluster}: a CA plus server and peer certificates per member and a client one. */
@Command(name = "cluster",
        description = {"Create a CA and every certificate a TLS cluster needs in one directory.",
            "Writes ca.pem, ca-key.pem, per member NAME.pem/NAME-key.pem (server) and",
            "peer-NAME.pem/peer-NAME-key.pem (peer), and client.pem/client-key.pem."})
final class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--member", required = true, paramLabel = "NAME=HOST[,HOST...]",
            description = "A member and its IPs/DNS names, e.g. infra0=127.0.0.1,localhost (repeatable).")
    List<String> members;

    @Option(names = "--client", paramLabel = "NAME", defaultValue = "root",
            description = "Common name of the client certificate, the etcd user under --client-cert-auth (default: ${DEFAULT-VALUE}).")
    String client;

    @Option(names = "--ca-name", paramLabel = "NAME", defaultValue = "etcd-ca",
            description = "Common name of a new CA (default: ${DEFAULT-VALUE}).")
    String caName;

    @Option(names = "--ca-cert", paramLabel = "FILE", description = "Sign with this existing CA instead of a new one (with --ca-key).")
    Path caCert;

    @Option(names = "--ca-key", paramLabel = "FILE", description = "Key of the existing CA.")
    Path caKey;

    @Option(names = "--validity", paramLabel = "DURATION", defaultValue = "8760h", converter = DurationConverter.class,
            description = "Lifetime of member and client certificates (a new CA gets five times as long; default: ${DEFAULT-VALUE}).")
    Duration validity;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".", description = "Output directory (default: current directory).")
    Path out;

    @Option(names = "--force", description = "Replace existing files.")
    boolean force;

    @Mixin
    KeyOptions key;

    @Override
    public Integer call() {
        List<ClusterCertificates.Member> parsed = new ArrayList<>();
        for (String member : members) {
            int equals = member.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("invalid --member \"" + member + "\" (use NAME=HOST[,HOST...])");
            }
            parsed.add(new ClusterCertificates.Member(member.substring(0, equals),
                    Hosts.split(List.of(member.substring(equals + 1)))));
        }
        for (ClusterCertificates.Member member : parsed) {
            if (member.hosts().isEmpty()) {
                spec.commandLine().getErr().println("Warning: member " + member.name()
                        + " has no hosts: clients and peers that verify the host name will reject its certificates");
            }
        }
        if ((caCert == null) != (caKey == null)) {
            throw new IllegalArgumentException("--ca-cert and --ca-key must be given together");
        }
        ClusterCertificates plan = ClusterCertificates.forMembers(parsed).client(client).caName(caName)
                .keySpec(key.keySpec()).keyFormat(key.keyFormat()).validity(validity);
        OutputFiles.refuseOverwrite(plannedFiles(parsed), force);
        ClusterTlsLayout layout = caCert == null ? plan.writeTo(out)
                : plan.writeTo(out, CertificateAuthority.load(caCert, caKey));
        print(layout, parsed);
        return ExitCodes.SUCCESS;
    }

    private List<Path> plannedFiles(List<ClusterCertificates.Member> parsed) {
        List<Path> files = new ArrayList<>(List.of(out.resolve("client.pem"), out.resolve("client-key.pem")));
        if (caCert == null) {
            // With an existing CA only its certificate is copied, possibly onto itself; nothing is lost.
            files.add(out.resolve("ca.pem"));
            files.add(out.resolve("ca-key.pem"));
        }
        for (ClusterCertificates.Member member : parsed) {
            files.add(out.resolve(member.name() + ".pem"));
            files.add(out.resolve("peer-" + member.name() + ".pem"));
        }
        return files;
    }

    private void print(ClusterTlsLayout layout, List<ClusterCertificates.Member> parsed) {
        PrintWriter printer = spec.commandLine().getOut();
        printer.println("Wrote " + layout.caCertificate() + " (CA: --trusted-ca-file, --peer-trusted-ca-file, etcdctl --cacert)");
        if (layout.caKey() != null) {
            printer.println("Wrote " + layout.caKey() + " (CA key, mode 0600)");
        }
        for (ClusterCertificates.Member member : parsed) {
            TlsFiles server = layout.server(member.name());
            TlsFiles peer = layout.peer(member.name());
            String hosts = String.join(",", member.hosts());
            printer.println("Wrote " + server.certFile() + ", " + server.keyFile() + " (" + member.name()
                    + " --cert-file/--key-file, hosts " + hosts + ")");
            printer.println("Wrote " + peer.certFile() + ", " + peer.keyFile() + " (" + member.name()
                    + " --peer-cert-file/--peer-key-file, hosts " + hosts + ")");
        }
        printer.println("Wrote " + layout.client().certFile() + ", " + layout.client().keyFile()
                + " (client \"" + client + "\": etcdctl --cert/--key)");
    }
}
