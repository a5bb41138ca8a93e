package io.etcdj.etcdutl;

import io.etcdj.server.datadir.DataDirException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The etcdutl command line: commands, the global {@code -w/--write-out}, and the one place where
 * failures become {@code Error: ...} on stderr and an exit code. No stack trace reaches the user.
 */
public final class Main {
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
            GlobalFlags global = GlobalFlags.extract(args);
            Context ctx = new Context(out, err, OutputFormat.parse(global.writeOut()));
            CommandLine cmd = commandLine(ctx);
            cmd.setOut(new PrintWriter(out, true));
            cmd.setErr(new PrintWriter(err, true));
            cmd.setParameterExceptionHandler((ex, a) -> fail(err, ExitCodes.ERROR, describe(ex)));
            cmd.setExecutionExceptionHandler((ex, c, parsed) -> failure(err, ex));
            return cmd.execute(global.rest());
        } catch (RuntimeException e) {
            return failure(err, e);
        } catch (LinkageError e) {
            // e.g. the native LMDB library cannot load: still one line, no stack trace
            return fail(err, ExitCodes.ERROR, String.valueOf(e.getMessage()));
        }
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
        root.self = new CommandLine(root)
                .addSubcommand("defrag", new DefragCommand(ctx))
                .addSubcommand("hashkv", new HashKvCommand(ctx))
                .addSubcommand("snapshot", snapshotCmd)
                .addSubcommand("version", new VersionCommand(ctx));
        root.self.setUsageHelpWidth(160);
        return root.self;
    }

    private static int failure(PrintStream err, Exception ex) {
        if (ex instanceof UtlException u) {
            return fail(err, u.exitCode(), u.getMessage());
        }
        if (ex instanceof DataDirException d) {
            return fail(err, ExitCodes.ERROR, d.getMessage());
        }
        return fail(err, ExitCodes.ERROR, ex.getMessage() != null ? ex.getMessage() : ex.toString());
    }

    private static int fail(PrintStream err, int code, String message) {
        err.println("Error: " + message);
        return code;
    }

    /** picocli's parse errors in the words of etcd's flag library. */
    private static String describe(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            if (first.startsWith("-")) {
                String flag = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
                return flag.startsWith("--") ? "unknown flag: " + flag
                        : "unknown shorthand flag: '" + flag.charAt(1) + "' in " + flag;
            }
            return "unknown command \"" + first + "\" for \"" + ex.getCommandLine().getCommandSpec().qualifiedName() + "\"";
        }
        String msg = ex.getMessage();
        if (msg != null && msg.startsWith("Missing required parameter for option '")) {
            String flag = msg.substring("Missing required parameter for option '".length(), msg.indexOf('\'', 40));
            return "flag needs an argument: " + flag;
        }
        return msg;
    }

    /** The global -w/--write-out, accepted anywhere on the line as etcd's persistent flag is. */
    record GlobalFlags(String writeOut, String[] rest) {
        static GlobalFlags extract(String[] args) {
            String format = "simple";
            List<String> rest = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--")) {
                    rest.addAll(List.of(args).subList(i, args.length));
                    break;
                }
                if (a.equals("-w") || a.equals("--write-out")) {
                    if (i + 1 >= args.length) {
                        throw new UtlException(ExitCodes.ERROR, "flag needs an argument: " + a);
                    }
                    format = args[++i];
                } else if (a.startsWith("--write-out=")) {
                    format = a.substring("--write-out=".length());
                } else if (a.startsWith("-w=")) {
                    format = a.substring(3);
                } else if (a.startsWith("-w") && !a.startsWith("--")) {
                    format = a.substring(2);
                } else {
                    rest.add(a);
                }
            }
            return new GlobalFlags(format, rest.toArray(String[]::new));
        }
    }
}
