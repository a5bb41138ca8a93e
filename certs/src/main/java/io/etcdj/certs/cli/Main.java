package io.etcdj.certs.cli;

import java.io.InputStream;
import java.io.PrintWriter;
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
        CommandLine commandLine = new CommandLine(new Main(stdin));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler(new ErrorHandler());
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }
}
