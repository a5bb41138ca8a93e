package io.etcdj.server.datadir;

/**
 * An offline operation failed for a reason the user can act on. The message is etcd's own text
 * where etcd has one (e.g. {@code snapshot missing hash but --skip-hash-check=false}).
 */
public final class DataDirException extends Exception {
    public DataDirException(String message) {
        super(message);
    }

    public DataDirException(String message, Throwable cause) {
        super(message, cause);
    }
}
