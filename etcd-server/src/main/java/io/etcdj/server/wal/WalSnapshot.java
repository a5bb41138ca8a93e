package io.etcdj.server.wal;

import io.etcdj.raftpb.ConfState;
import java.util.Objects;

/**
 * Where a Raft snapshot cut the log: its index and term, plus the membership it carries. Equality
 * is by index and term only, so {@code Wal.validSnapshots(...).contains(new WalSnapshot(i, t))}
 * answers whether the WAL vouches for a snapshot file; the ConfState is informational.
 */
public record WalSnapshot(long index, long term, ConfState confState) {

    /** The marker every new WAL starts with: no snapshot yet. */
    public static final WalSnapshot NONE = new WalSnapshot(0, 0);

    public WalSnapshot {
        Objects.requireNonNull(confState, "confState");
    }

    public WalSnapshot(long index, long term) {
        this(index, term, ConfState.getDefaultInstance());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WalSnapshot other && index == other.index && term == other.term;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + Long.hashCode(term);
    }

    @Override
    public String toString() {
        return "snapshot(index=" + index + ", term=" + term + ")";
    }
}
