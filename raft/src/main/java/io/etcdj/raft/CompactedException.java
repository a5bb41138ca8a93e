package io.etcdj.raft;

/** The requested index is older than the storage's first index: it was compacted into a snapshot. */
public final class CompactedException extends RaftException {
    private static final long serialVersionUID = 1L;

    public CompactedException(long index, long firstIndex) {
        super("requested index " + index + " is unavailable due to compaction (first index " + firstIndex + ")");
    }
}
