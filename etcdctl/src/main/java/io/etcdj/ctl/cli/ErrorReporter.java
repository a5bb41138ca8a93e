package io.etcdj.ctl.cli;

import io.etcdj.client.EtcdClientException;

import java.io.PrintStream;

/** The one place where failures become etcdctl's "Error: ..." line and exit code. */
public final class ErrorReporter {

    private ErrorReporter() {
    }

    public static int report(RuntimeException e, PrintStream err) {
        if (e instanceof CtlException c) {
            if (c.getMessage() != null) {
                err.println("Error: " + c.getMessage());
            }
            return c.exitCode();
        }
        if (e instanceof EtcdClientException c) {
            err.println("Error: " + c.getMessage());
            return ExitCodes.ERROR;
        }
        err.println("Error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        return ExitCodes.ERROR;
    }
}
