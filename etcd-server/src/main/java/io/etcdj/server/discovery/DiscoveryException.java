package io.etcdj.server.discovery;

/** A bootstrap from DNS that cannot proceed; the message is etcd's text. */
public final class DiscoveryException extends Exception {
    private static final long serialVersionUID = 1L;

    public DiscoveryException(String message) {
        super(message);
    }
}
