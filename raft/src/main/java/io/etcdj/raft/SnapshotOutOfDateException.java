package io.etcdj.raft;

/** A snapshot older than (or as old as) the one the storage already holds was offered. */
public final class SnapshotOutOfDateException extends RaftException {
    private static final long serialVersionUID = 1L;

    public SnapshotOutOfDateException(long offered, long current) {
        super("requested snapshot index " + offered + " is older than the existing snapshot index " + current);
    }
}
