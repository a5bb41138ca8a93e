package io.etcdj.server.proxy;

/**
 * A command line cobra rejects before the command runs (unknown flag, bad value). cobra prints
 * "Error: " and the message, then the usage, and etcd's main prints the message once more.
 */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
