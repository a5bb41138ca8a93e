package io.etcdj.server.config;

/**
 * Invalid configuration: the message is what etcd prints, and {@code exitCode} what it exits with
 * (2 for flag syntax errors with usage, 1 for everything found after parsing).
 */
public final class ConfigException extends Exception {
    private final int exitCode;
    private final boolean showUsage;

    public ConfigException(String message, int exitCode, boolean showUsage) {
        super(message);
        this.exitCode = exitCode;
        this.showUsage = showUsage;
    }

    public ConfigException(String message) {
        this(message, 1, false);
    }

    public int exitCode() {
        return exitCode;
    }

    public boolean showUsage() {
        return showUsage;
    }
}
