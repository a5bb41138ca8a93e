package io.etcdj.ctl.cli;

/**
 * A command failure with etcdctl's exit code; the message is printed as {@code Error: <message>}.
 * Every expected failure becomes one of these, mapped to output in {@link ErrorReporter}.
 */
public final class CtlException extends RuntimeException {

    private final int exitCode;

    public CtlException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CtlException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
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
