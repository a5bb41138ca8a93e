package io.etcdj.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

/**
 * The one place where a failure becomes its error line and exit code: a {@link CliException} with
 * its own code, anything else (a client error, a data-dir error) with {@link ExitCodes#ERROR} and its
 * message. No stack trace reaches the user. etcdctl and etcdutl print etcd's {@code Error: ...};
 * {@link ToolCommandLine} prints each tool's own prefix.
 */
public final class ErrorReporter {

    private ErrorReporter() {
    }

    /** Prints the error line for {@code e} on {@code err} and returns the exit code. */
    public static int report(Throwable e, PrintStream err) {
        if (e instanceof CliException c) {
            if (c.getMessage() != null) {
                err.println("Error: " + c.getMessage());
            }
            return c.exitCode();
        }
        err.println("Error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        return ExitCodes.ERROR;
    }

    /** Prints {@code prefix} and the failure's message (none when it is null) and returns its exit code. */
    public static int report(CliException e, String prefix, PrintWriter err) {
        if (e.getMessage() != null) {
            err.println(prefix + e.getMessage());
            err.flush();
        }
        return e.exitCode();
    }
}
