package io.etcdj.raft;

/** The requested index is newer than anything the storage holds. */
public final class UnavailableException extends RaftException {
    private static final long serialVersionUID = 1L;

    public UnavailableException(long index, long lastIndex) {
        super("requested entry at index " + index + " is unavailable (last index " + lastIndex + ")");
    }
}
