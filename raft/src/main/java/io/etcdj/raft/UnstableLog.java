package io.etcdj.raft;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * Entries (and possibly an incoming snapshot) that the core accepted but the driver has not yet
 * persisted. {@code entries.get(i)} has index {@code offset + i}.
 */
final class UnstableLog {
    private Snapshot snapshot;
    private List<Entry> entries = new ArrayList<>();
    private long offset;

    UnstableLog(long offset) {
        this.offset = offset;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    long offset() {
        return offset;
    }

    boolean hasEntries() {
        return !entries.isEmpty();
    }

    List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** First index known only through the unstable snapshot, or -1. */
    long maybeFirstIndex() {
        return snapshot != null ? snapshot.getMetadata().getIndex() + 1 : -1;
    }

    /** Last index held here, or -1 if nothing unstable. */
    long maybeLastIndex() {
        if (!entries.isEmpty()) {
            return offset + entries.size() - 1;
        }
        return snapshot != null ? snapshot.getMetadata().getIndex() : -1;
    }

    /** Term of {@code i} if known here, or -1. */
    long maybeTerm(long i) {
        if (i < offset) {
            if (snapshot != null && snapshot.getMetadata().getIndex() == i) {
                return snapshot.getMetadata().getTerm();
            }
            return -1;
        }
        long last = maybeLastIndex();
        if (last < 0 || i > last) {
            return -1;
        }
        return entries.get((int) (i - offset)).getTerm();
    }

    /** The driver persisted entries up to {@code i} (of term {@code t}); forget them unless overwritten since. */
    void stableTo(long i, long t) {
        long gt = maybeTerm(i);
        if (gt < 0) {
            return;
        }
        if (gt == t && i >= offset) {
            entries = new ArrayList<>(entries.subList((int) (i + 1 - offset), entries.size()));
            offset = i + 1;
        }
    }

    void stableSnapTo(long i) {
        if (snapshot != null && snapshot.getMetadata().getIndex() == i) {
            snapshot = null;
        }
    }

    void restore(Snapshot s) {
        offset = s.getMetadata().getIndex() + 1;
        entries = new ArrayList<>();
        snapshot = s;
    }

    void truncateAndAppend(List<Entry> ents) {
        long after = ents.get(0).getIndex();
        if (after == offset + entries.size()) {
            entries.addAll(ents);
        } else if (after <= offset) {
            // Replaces everything unstable; the driver's storage append truncates the durable tail too.
            offset = after;
            entries = new ArrayList<>(ents);
        } else {
            List<Entry> kept = new ArrayList<>(entries.subList(0, (int) (after - offset)));
            kept.addAll(ents);
            entries = kept;
        }
    }

    List<Entry> slice(long lo, long hi) {
        if (lo > hi || lo < offset || hi > offset + entries.size()) {
            throw new IllegalStateException("invalid unstable slice [" + lo + "," + hi + ") with offset " + offset
                    + " and " + entries.size() + " entries");
        }
        return entries.subList((int) (lo - offset), (int) (hi - offset));
    }
}
