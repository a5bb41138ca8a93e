package io.etcdj.server.wal;

/** The snapshot the member recovered from is not marked in the WAL, so the two do not belong together. */
public final class WalSnapshotNotFoundException extends WalException {
    private static final long serialVersionUID = 1L;

    public WalSnapshotNotFoundException(String message) {
        super(message);
    }
}
