package io.etcdj.certs.cli;

import io.etcdj.certs.CertsException;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.ToolCommandLine;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code etcd-certs}: makes and checks the TLS files etcd members and clients use. */
@Command(name = "etcd-certs",
        description = "Create and check TLS certificates for etcd: a CA, server, peer and client certificates, "
                + "whole clusters, and cfssl-compatible 'gencert'.",
        mixinStandardHelpOptions = false,
        subcommands = {CaCommand.class, IssueCommand.class, ClusterCommand.class, InspectCommand.class,
            GencertCommand.class, PrintDefaultsCommand.class})
public final class Main implements Runnable {
    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, scope = CommandLine.ScopeType.INHERIT,
            description = "Show this help and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    final InputStream stdin;

    Main(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(execute(args, out, err, System.in));
    }

    /** Runs one command line with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err, InputStream stdin) {
        return ToolCommandLine.of(new Main(stdin)).streams(out, err).failures(Main::failure).build().execute(args);
    }

    /**
     * What a failed command reads: bad material or input (a missing, unreadable or malformed file, a
     * mismatch, an expired certificate, a wrong CA) as its own message, exit 1.
     */
    static CliException failure(Exception e) {
        if (e instanceof CertsException || e instanceof IllegalArgumentException) {
            return new CliException(ExitCodes.ERROR, e.getMessage(), e);
        }
        if (e instanceof UncheckedIOException io) {
            return new CliException(ExitCodes.ERROR, io.getCause().getMessage(), e); // the message names the file
        }
        return null;
    }
}
