package io.etcdj.certs.cli;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.SubjectName;
import io.etcdj.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code etcd-certs ca}: a new self-signed CA. */
@Command(name = "ca", description = "Create a certificate authority: NAME.pem and NAME-key.pem (default ca.pem, ca-key.pem).")
final class CaCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--cn", paramLabel = "NAME", defaultValue = "etcd-ca", description = "Common name (default: ${DEFAULT-VALUE}).")
    String commonName;

    @Option(names = {"--org", "-O"}, paramLabel = "ORG", description = "Organization (O) of the subject.")
    String organization;

    @Option(names = "--validity", paramLabel = "DURATION", defaultValue = "43800h", converter = DurationConverter.class,
            description = "Lifetime, e.g. 43800h, 3650d, 10y (default: ${DEFAULT-VALUE}).")
    Duration validity;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".", description = "Output directory (default: current directory).")
    Path out;

    @Option(names = "--name", paramLabel = "BASE", defaultValue = "ca", description = "Base file name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--force", description = "Replace existing files.")
    boolean force;

    @Mixin
    KeyOptions key;

    @Override
    public Integer call() {
        Path cert = out.resolve(name + ".pem");
        Path keyFile = out.resolve(name + "-key.pem");
        OutputFiles.refuseOverwrite(List.of(cert, keyFile), force);
        CertificateRequest request = CertificateRequest.ca(commonName).keySpec(key.keySpec()).validity(validity);
        if (organization != null) {
            request = request.name(SubjectName.organization(organization));
        }
        CertificateAuthority.create(request).writePem(cert, keyFile, key.keyFormat());
        PrintWriter printer = spec.commandLine().getOut();
        printer.println("Wrote " + cert + " (CA certificate)");
        printer.println("Wrote " + keyFile + " (CA key, mode 0600)");
        return ExitCodes.SUCCESS;
    }
}
