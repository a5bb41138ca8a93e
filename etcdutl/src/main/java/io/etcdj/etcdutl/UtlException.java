package io.etcdj.etcdutl;

/** A failure to report as {@code Error: <message>} on stderr, exiting with {@code exitCode}. */
final class UtlException extends RuntimeException {
    private final int exitCode;

    UtlException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
