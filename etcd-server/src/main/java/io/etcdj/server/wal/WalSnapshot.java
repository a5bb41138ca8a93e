package io.etcdj.server.wal;

import io.etcdj.raftpb.ConfState;
import java.util.Objects;

/**
 * Where a Raft snapshot cut the log: its index and term, plus the membership it carries. Two
 * markers name the same snapshot when index and term agree; the ConfState is informational.
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

    /** True when {@code other} marks the same point of the log. */
    public boolean samePoint(WalSnapshot other) {
        return index == other.index && term == other.term;
    }

    @Override
    public String toString() {
        return "snapshot(index=" + index + ", term=" + term + ")";
    }
}
