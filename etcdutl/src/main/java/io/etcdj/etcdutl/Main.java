package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ErrorReporter;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GlobalFlag;
import io.etcdj.cli.GoConverters;
import io.etcdj.cli.OutputFormat;
import io.etcdj.cli.PersistentFlags;
import io.etcdj.cli.PflagErrors;
import io.etcdj.cli.ToolCommandLine;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The etcdutl command line: its commands and the global {@code -w/--write-out}, on the plumbing every
 * tool shares (io.etcdj.cli): persistent flags, pflag's parse errors, {@link ToolCommandLine}'s
 * set-up and {@link ErrorReporter}, where every failure becomes {@code Error: ...} on stderr and an
 * exit code.
 * No stack trace reaches the user.
 */
public final class Main {
    /** etcdutl's one global flag, {@code -w/--write-out}: a persistent flag, accepted anywhere on the line. */
    static final GlobalFlag WRITE_OUT = new GlobalFlag("write-out", "w", GlobalFlag.Kind.STRING, "simple",
            "set the output format (fields, json, protobuf, simple, table)");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    @Command(name = "etcdutl", description = "An administrative command line tool for etcd3.",
            customSynopsis = "etcdutl [command]")
    static final class Root implements Runnable {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for etcdutl")
        boolean help;

        @Option(names = {"-w", "--write-out"}, paramLabel = "string",
                description = "set the output format (fields, json, protobuf, simple, table) (default \"simple\")")
        String writeOut;

        private final PrintStream out;
        CommandLine self;

        Root(PrintStream out) {
            this.out = out;
        }

        @Override
        public void run() {
            self.usage(out);
        }
    }

    @Command(name = "snapshot", description = "Manages etcd node snapshots", customSynopsis = "etcdutl snapshot [command]")
    static final class Snapshot implements Runnable {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for snapshot")
        boolean help;

        private final PrintStream out;
        CommandLine self;

        Snapshot(PrintStream out) {
            this.out = out;
        }

        @Override
        public void run() {
            self.usage(out);
        }
    }

    /** Runs one command line; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            String[] format = {WRITE_OUT.defaultText()};
            PersistentFlags global = PersistentFlags.split(args, List.of(WRITE_OUT), (flag, value) -> format[0] = value);
            if (global.error() != null) {
                throw new CliException(ExitCodes.ERROR, global.error());
            }
            Context ctx = new Context(out, err, OutputFormat.parse(format[0]));
            return ToolCommandLine.of(commandLine(ctx))
                    .streams(out, err)
                    .parseErrors(ex -> new CliException(ExitCodes.ERROR, describe(ex)))
                    .failures(Main::failure)
                    .build()
                    .execute(global.rest().toArray(String[]::new));
        } catch (RuntimeException | LinkageError e) {
            // a LinkageError: e.g. the native LMDB library cannot load; still one line, no stack trace
            return ErrorReporter.report(e, err);
        }
    }

    /** Any failure of a command: its message (or, without one, what it is), exit 1, as etcdutl's cobrautl. */
    private static CliException failure(Exception e) {
        return new CliException(ExitCodes.ERROR, e.getMessage() == null ? e.toString() : e.getMessage(), e);
    }

    private static CommandLine commandLine(Context ctx) {
        Snapshot snapshot = new Snapshot(ctx.out());
        CommandLine snapshotCmd = new CommandLine(snapshot)
                .addSubcommand("export", new SnapshotExportCommand(ctx))
                .addSubcommand("restore", new SnapshotRestoreCommand(ctx))
                .addSubcommand("save", new SnapshotSaveCommand())
                .addSubcommand("status", new SnapshotStatusCommand(ctx));
        snapshot.self = snapshotCmd;
        Root root = new Root(ctx.out());
        CompletionCommand completion = new CompletionCommand(ctx);
        root.self = new CommandLine(root)
                .addSubcommand("completion", completion)
                .addSubcommand("defrag", new DefragCommand(ctx))
                .addSubcommand("hashkv", new HashKvCommand(ctx))
                .addSubcommand("snapshot", snapshotCmd)
                .addSubcommand("version", new VersionCommand(ctx));
        root.self.setUsageHelpWidth(160);
        completion.root = root.self;
        GoConverters.register(root.self);
        return root.self;
    }

    /**
     * A parse error in pflag's and cobra's words: a word that names no subcommand is cobra's unknown
     * command; anything else as {@link PflagErrors#describe} words it.
     */
    private static String describe(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            return PflagErrors.unknownCommand(u.getUnmatched().get(0), ex.getCommandLine().getCommandSpec().qualifiedName());
        }
        return PflagErrors.describe(ex);
    }
}
