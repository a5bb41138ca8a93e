package io.etcdj.launcher;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ToolCommandLine;
import io.etcdj.launcher.cli.LauncherCommand;
import io.etcdj.launcher.cli.LauncherContext;

/** Entry point of {@code bin/cluster-launcher}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(LauncherContext.fromSystem(), args));
    }

    /**
     * Runs one command line; tests call this with their own context. A {@link LauncherException}
     * reads {@code Error: <message>} with its exit code; anything else, e.g. file-system trouble (a
     * base dir that cannot be created, a full disk), as cli-support describes it
     * ({@code Error: IOException: <message naming the path>}), exit 1.
     */
    public static int run(LauncherContext context, String... args) {
        return ToolCommandLine.of(new LauncherCommand(context))
                .streams(context.out(), context.err())
                .failures(e -> e instanceof LauncherException le ? new CliException(le.exitCode(), le.getMessage(), le) : null)
                .build()
                .execute(args);
    }
}
