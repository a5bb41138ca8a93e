package io.etcdj.launcher;

import io.etcdj.cli.ExitCodes;

/**
 * A failure the user can act on: printed as {@code Error: message} with no stack trace, and
 * turned into the process exit code by {@link Main}.
 */
public class LauncherException extends RuntimeException {
    private final int exitCode;

    public LauncherException(String message) {
        this(message, ExitCodes.ERROR);
    }

    public LauncherException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public LauncherException(String message, Throwable cause) {
        super(message, cause);
        this.exitCode = ExitCodes.ERROR;
    }

    public int exitCode() {
        return exitCode;
    }
}
