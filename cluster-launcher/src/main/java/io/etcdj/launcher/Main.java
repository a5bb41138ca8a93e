package io.etcdj.launcher;

import io.etcdj.launcher.cli.LauncherCommand;
import io.etcdj.launcher.cli.LauncherContext;
import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point of {@code bin/cluster-launcher}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(LauncherContext.fromSystem(), args));
    }

    /** Runs one command line; tests call this with their own context. */
    public static int run(LauncherContext context, String... args) {
        CommandLine cli = new CommandLine(new LauncherCommand(context));
        cli.setOut(new PrintWriter(context.out(), true));
        cli.setErr(new PrintWriter(context.err(), true));
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof LauncherException le) {
                context.err().println("Error: " + le.getMessage());
                return le.exitCode();
            }
            if (e instanceof java.io.IOException io) {
                // file-system trouble (a base dir that cannot be created, a full disk): the message names the path
                context.err().println("Error: " + io.getClass().getSimpleName() + ": " + io.getMessage());
                return ExitCodes.FAILURE;
            }
            context.err().println("Error: " + e);
            return ExitCodes.FAILURE;
        });
        return cli.execute(args);
    }
}
