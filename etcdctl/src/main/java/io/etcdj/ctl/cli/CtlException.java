package io.etcdj.ctl.cli;

/**
 * A command failure with etcdctl's exit code; the message is printed as {@code Error: <message>}.
 * Every expected failure becomes one of these, mapped to output in {@link ErrorReporter}.
 */
public final class CtlException extends RuntimeException {

    private final int exitCode;
    private final boolean showsUsage;

    public CtlException(int exitCode, String message) {
        this(exitCode, message, null, false);
    }

    public CtlException(int exitCode, String message, Throwable cause) {
        this(exitCode, message, cause, false);
    }

    private CtlException(int exitCode, String message, Throwable cause, boolean showsUsage) {
        super(message, cause);
        this.exitCode = exitCode;
        this.showsUsage = showsUsage;
    }

    public int exitCode() {
        return exitCode;
    }

    /** True for cobra's argument-validation errors, which print the command's usage between two error lines. */
    public boolean showsUsage() {
        return showsUsage;
    }

    /** A cobra argument-validation failure (exit 1, usage shown), e.g. {@code accepts 1 arg(s), received 0}. */
    public static CtlException usage(String message) {
        return new CtlException(ExitCodes.ERROR, message, null, true);
    }

    public static CtlException badArgs(String message) {
        return new CtlException(ExitCodes.BAD_ARGS, message);
    }

    public static CtlException error(String message) {
        return new CtlException(ExitCodes.ERROR, message);
    }

    public static CtlException unsupportedFormat(String format) {
        return new CtlException(ExitCodes.BAD_FEATURE, format + " not supported as output format");
    }
}
