package io.etcdj.certs;

import java.nio.file.Path;

/**
 * A certificate, key or CA file cannot be used: missing, unreadable, malformed, expired, for the
 * wrong purpose or host, not matching its key, or not signed by the expected CA. Where Go's
 * crypto/tls (and so the real etcd) has a text for the problem, the message uses it.
 */
public final class TlsMaterialException extends CertsException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public TlsMaterialException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    /** For problems whose text already names the file, such as Go's {@code open FILE: ...}. */
    static TlsMaterialException withText(Path file, String message) {
        return new TlsMaterialException(message, file);
    }

    private TlsMaterialException(String completeMessage, Path file) {
        super(completeMessage);
        this.file = file;
    }

    /** The file the problem is about. */
    public Path file() {
        return file;
    }
}
