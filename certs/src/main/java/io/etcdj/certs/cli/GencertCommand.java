package io.etcdj.certs.cli;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.cfssl.CfsslCsr;
import io.etcdj.certs.cfssl.CfsslGencert;
import io.etcdj.certs.cfssl.CfsslResult;
import io.etcdj.certs.cfssl.CfsslSigningConfig;
import io.etcdj.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * cfssl's {@code gencert}, with cfssljson's {@code -bare} built in: {@code cfssl gencert ARGS |
 * cfssljson -bare NAME} becomes {@code etcd-certs gencert ARGS --bare NAME}. Flags are accepted
 * with one or two dashes and with "=" or a space, as Go's flag package does.
 */
@Command(name = "gencert",
        description = {"cfssl-compatible: generate a key and certificate from a cfssl JSON CSR.",
            "  gencert -initca ca-csr.json --bare ca",
            "  gencert -ca ca.pem -ca-key ca-key.pem -config ca-config.json -profile server req-csr.json --bare infra0",
            "Without --bare, prints cfssl's JSON ({\"cert\",\"csr\",\"key\"}) for cfssljson."})
final class GencertCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ParentCommand
    Main root;

    @Option(names = {"-initca", "--initca"}, description = "Create a new self-signed CA from the CSR.")
    boolean initCa;

    @Option(names = {"-ca", "--ca"}, paramLabel = "FILE", description = "CA certificate to sign with.")
    Path caCert;

    @Option(names = {"-ca-key", "--ca-key"}, paramLabel = "FILE", description = "CA private key.")
    Path caKey;

    @Option(names = {"-config", "--config"}, paramLabel = "FILE",
            description = "cfssl signing configuration (ca-config.json); default: server and client auth, 8760h.")
    Path config;

    @Option(names = {"-profile", "--profile"}, paramLabel = "NAME", description = "Signing profile in the configuration.")
    String profile;

    @Option(names = {"-hostname", "--hostname"}, paramLabel = "HOST[,HOST...]",
            description = "Replace the CSR's hosts with these (comma-separated).")
    String hostname;

    @Option(names = {"-bare", "--bare"}, paramLabel = "NAME",
            description = "Write NAME.pem, NAME-key.pem and NAME.csr, as 'cfssljson -bare NAME' does.")
    String bare;

    @Parameters(index = "0", paramLabel = "CSRJSON", description = "cfssl JSON certificate request ('-' reads standard input).")
    Path csrFile;

    @Override
    public Integer call() {
        CfsslCsr csr = CfsslCsr.read(csrFile, root.stdin);
        CfsslResult result;
        if (initCa) {
            result = CfsslGencert.initCa(csr);
        } else {
            if (caCert == null || caKey == null) {
                throw new IllegalArgumentException("-ca and -ca-key are required to sign a certificate (or use -initca)");
            }
            CfsslSigningConfig signing = config == null ? CfsslSigningConfig.builtIn()
                    : CfsslSigningConfig.read(config, root.stdin);
            CertificateAuthority ca = CertificateAuthority.load(caCert, caKey);
            // As in cfssl, an empty -hostname keeps the CSR's hosts.
            List<String> hosts = hostname == null || hostname.isBlank() ? null : Hosts.split(List.of(hostname));
            result = CfsslGencert.sign(csr, ca, signing.profile(profile), hosts);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (bare == null) {
            out.println(result.toJson());
            return ExitCodes.SUCCESS;
        }
        for (Path written : result.writeBare(bare)) {
            out.println("Wrote " + written);
        }
        return ExitCodes.SUCCESS;
    }
}
