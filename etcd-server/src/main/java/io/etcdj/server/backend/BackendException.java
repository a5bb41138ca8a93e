package io.etcdj.server.backend;

/** A failure of the backend file: the member cannot go on safely and stops. */
public final class BackendException extends RuntimeException {
    public BackendException(String message, Throwable cause) {
        super(message, cause);
    }

    public BackendException(String message) {
        super(message);
    }
}
