package io.etcdj.embedded;

/** A cluster or member that could not be started, stopped or reached; the message says which and why. */
public final class EtcdClusterException extends RuntimeException {
    public EtcdClusterException(String message) {
        super(message);
    }

    public EtcdClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
