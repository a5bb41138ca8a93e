package io.etcdj.cli;

/**
 * A command-line failure with etcd's exit code; the message is printed as {@code Error: <message>}
 * (none when it is null: the text was printed already). Every expected failure of etcdctl and
 * etcdutl becomes one of these, turned into output by {@link ErrorReporter}.
 */
public final class CliException extends RuntimeException {

    private final int exitCode;
    private final boolean showsUsage;

    public CliException(int exitCode, String message) {
        this(exitCode, message, null, false);
    }

    public CliException(int exitCode, String message, Throwable cause) {
        this(exitCode, message, cause, false);
    }

    private CliException(int exitCode, String message, Throwable cause, boolean showsUsage) {
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
    public static CliException usage(String message) {
        return new CliException(ExitCodes.ERROR, message, null, true);
    }

    public static CliException badArgs(String message) {
        return new CliException(ExitCodes.BAD_ARGS, message);
    }

    public static CliException error(String message) {
        return new CliException(ExitCodes.ERROR, message);
    }

    /** etcd's refusal of an output format a result has no printer for, e.g. {@code protobuf} for a status. */
    public static CliException unsupportedFormat(String format) {
        return new CliException(ExitCodes.BAD_FEATURE, format + " not supported as output format");
    }
}
