package io.etcdj.server.bbolt;

/** A bbolt file that cannot be read (truncated, corrupted, not bbolt) or written. */
public final class BboltException extends Exception {
    public BboltException(String message) {
        super(message);
    }

    public BboltException(String message, Throwable cause) {
        super(message, cause);
    }
}
