package io.etcdj.cli;

import java.io.PrintStream;

/**
 * The one place where a failure becomes etcd's {@code Error: ...} line and exit code: a
 * {@link CliException} with its own code, anything else (a client error, a data-dir error) with
 * {@link ExitCodes#ERROR} and its message. No stack trace reaches the user.
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
}
