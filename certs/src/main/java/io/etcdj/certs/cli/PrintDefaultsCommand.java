package io.etcdj.certs.cli;

import io.etcdj.certs.cfssl.CfsslDefaults;
import io.etcdj.cli.ExitCodes;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code etcd-certs print-defaults config|csr}: cfssl-style starting files to edit. */
@Command(name = "print-defaults", description = "Print a cfssl-style signing configuration (config) or CSR (csr) to edit.")
final class PrintDefaultsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "config|csr")
    String what;

    @Override
    public Integer call() {
        String text = switch (what.toLowerCase(Locale.ROOT)) {
            case "config" -> CfsslDefaults.config();
            case "csr" -> CfsslDefaults.csr();
            default -> throw new IllegalArgumentException("unknown default \"" + what + "\" (use config or csr)");
        };
        spec.commandLine().getOut().print(text);
        return ExitCodes.SUCCESS;
    }
}
