package io.etcdj.server.etcdserver;

/**
 * A committed Raft entry that does not decode. Every member applies the same log, so skipping it
 * would leave this member's state different from the others' for good: the member stops instead,
 * as etcd panics with "unmarshal should never fail".
 */
final class CorruptEntryException extends IllegalStateException {
    private final long index;

    CorruptEntryException(long index, String kind, Throwable cause) {
        super("committed " + kind + " at index " + index + " cannot be decoded: " + cause.getMessage(), cause);
        this.index = index;
    }

    /** The Raft index of the entry. */
    long index() {
        return index;
    }
}
