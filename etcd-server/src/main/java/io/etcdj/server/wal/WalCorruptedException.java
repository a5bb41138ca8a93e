package io.etcdj.server.wal;

import java.util.Optional;

/**
 * The log holds damage that is not a torn final write: a bad record with intact records after it,
 * a broken chain between segments, or a gap in the entries. The member must not start on it.
 */
public final class WalCorruptedException extends WalException {
    private static final long serialVersionUID = 1L;

    private final transient WalPosition position;

    public WalCorruptedException(WalPosition position, String reason) {
        super("wal: corrupt record in " + position + ": " + reason);
        this.position = position;
    }

    public WalCorruptedException(String message) {
        super(message);
        this.position = null;
    }

    /** Where the damage starts, when it is tied to one record. */
    public Optional<WalPosition> position() {
        return Optional.ofNullable(position);
    }
}
