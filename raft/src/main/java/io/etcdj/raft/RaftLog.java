package io.etcdj.raft;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's log as one sequence: durable entries read through {@link RaftStorage} followed by
 * the {@link UnstableLog} tail, plus the commit and apply marks.
 */
final class RaftLog {
    private final RaftStorage storage;
    private final UnstableLog unstable;
    private final long maxApplySize;
    private long committed;
    /** Highest index handed to the application in a Ready (it may still be applying it). */
    private long applying;
    /** Highest index the application reported as applied: what elections and conf changes trust. */
    private long applied;

    RaftLog(RaftStorage storage, long maxApplySize) {
        this.storage = storage;
        this.maxApplySize = maxApplySize;
        long first = storage.firstIndex();
        long last = storage.lastIndex();
        this.unstable = new UnstableLog(last + 1);
        this.committed = first - 1;
        this.applying = first - 1;
        this.applied = first - 1;
    }

    long committed() {
        return committed;
    }

    long applied() {
        return applied;
    }

    long applying() {
        return applying;
    }

    UnstableLog unstable() {
        return unstable;
    }

    long firstIndex() {
        long i = unstable.maybeFirstIndex();
        return i >= 0 ? i : storage.firstIndex();
    }

    long lastIndex() {
        long i = unstable.maybeLastIndex();
        return i >= 0 ? i : storage.lastIndex();
    }

    long lastTerm() {
        return term(lastIndex());
    }

    /** Term of entry {@code i}; 0 for indexes past the end; throws for compacted ones. */
    long term(long i) {
        long dummy = firstIndex() - 1;
        if (i < dummy) {
            throw new CompactedException(i, dummy + 1);
        }
        if (i > lastIndex()) {
            return 0;
        }
        long t = unstable.maybeTerm(i);
        if (t >= 0) {
            return t;
        }
        return storage.term(i);
    }

    /** Term of {@code i}, or 0 when it is compacted or unavailable. */
    long termOrZero(long i) {
        try {
            return term(i);
        } catch (CompactedException | UnavailableException e) {
            return 0;
        }
    }

    boolean matchTerm(long i, long t) {
        return termOrZero(i) == t;
    }

    /** Raft's "at least as up to date" rule used to grant votes. */
    boolean isUpToDate(long lastIndex, long lastTerm) {
        long myTerm = lastTerm();
        return lastTerm > myTerm || (lastTerm == myTerm && lastIndex >= lastIndex());
    }

    /**
     * Appends a leader's entries after (index, logTerm) if that entry matches. Returns the index of
     * the last new entry, or -1 when the consistency check fails.
     */
    long maybeAppend(long index, long logTerm, long leaderCommit, List<Entry> ents) {
        if (!matchTerm(index, logTerm)) {
            return -1;
        }
        long lastNew = index + ents.size();
        long conflict = findConflict(ents);
        if (conflict != 0) {
            if (conflict <= committed) {
                throw new IllegalStateException("entry " + conflict + " conflicts with committed entry [committed(" + committed + ")]");
            }
            append(ents.subList((int) (conflict - (index + 1)), ents.size()));
        }
        commitTo(Math.min(leaderCommit, lastNew));
        return lastNew;
    }

    long append(List<Entry> ents) {
        if (ents.isEmpty()) {
            return lastIndex();
        }
        long after = ents.get(0).getIndex() - 1;
        if (after < committed) {
            throw new IllegalStateException("after(" + after + ") is out of range [committed(" + committed + ")]");
        }
        unstable.truncateAndAppend(ents);
        return lastIndex();
    }

    /** Index of the first entry that is new or disagrees on term, or 0 if all are already present. */
    private long findConflict(List<Entry> ents) {
        for (Entry e : ents) {
            if (!matchTerm(e.getIndex(), e.getTerm())) {
                return e.getIndex();
            }
        }
        return 0;
    }

    /**
     * The largest index {@code <= index} whose term is {@code <= term}: where a diverging log can
     * possibly match. Lets a rejected append skip a whole term instead of one entry per round trip.
     * Returns {index, termAtIndex}.
     */
    long[] findConflictByTerm(long index, long term) {
        long i = Math.min(index, lastIndex());
        while (true) {
            long t;
            try {
                t = term(i);
            } catch (CompactedException | UnavailableException e) {
                return new long[] {i, 0};
            }
            if (t <= term) {
                return new long[] {i, t};
            }
            i--;
        }
    }

    void commitTo(long toCommit) {
        if (committed < toCommit) {
            if (lastIndex() < toCommit) {
                throw new IllegalStateException("tocommit(" + toCommit + ") is out of range [lastIndex(" + lastIndex() + ")]");
            }
            committed = toCommit;
        }
    }

    /** Commits {@code maxIndex} if it carries the leader's current term (Raft §5.4.2). */
    boolean maybeCommit(long maxIndex, long term) {
        if (maxIndex > committed && termOrZero(maxIndex) == term) {
            commitTo(maxIndex);
            return true;
        }
        return false;
    }

    void appliedTo(long index) {
        if (index == 0) {
            return;
        }
        if (committed < index || index < applied) {
            throw new IllegalStateException("applied(" + index + ") is out of range [prevApplied(" + applied
                    + "), committed(" + committed + ")]");
        }
        applied = index;
        applying = Math.max(applying, index);
    }

    /** The application was handed entries up to {@code index}; they are not handed out again. */
    void applyingTo(long index) {
        if (index == 0) {
            return;
        }
        if (committed < index || index < applying) {
            throw new IllegalStateException("applying(" + index + ") is out of range [prevApplying(" + applying
                    + "), committed(" + committed + ")]");
        }
        applying = index;
    }

    void stableTo(long i, long t) {
        unstable.stableTo(i, t);
    }

    void stableSnapTo(long i) {
        unstable.stableSnapTo(i);
    }

    List<Entry> unstableEntries() {
        return unstable.entries();
    }

    /** Committed entries not yet handed to the application, limited in size. */
    List<Entry> nextEntries() {
        long lo = Math.max(applying + 1, firstIndex());
        if (committed + 1 > lo) {
            return slice(lo, committed + 1, maxApplySize);
        }
        return List.of();
    }

    boolean hasNextEntries() {
        return committed + 1 > Math.max(applying + 1, firstIndex());
    }

    boolean hasPendingSnapshot() {
        return unstable.snapshot() != null;
    }

    Snapshot snapshot() {
        Snapshot s = unstable.snapshot();
        return s != null ? s : storage.snapshot();
    }

    /** Entries from {@code i} to the end, at most {@code maxSize} bytes (at least one). */
    List<Entry> entriesFrom(long i, long maxSize) {
        if (i > lastIndex()) {
            return List.of();
        }
        return slice(i, lastIndex() + 1, maxSize);
    }

    List<Entry> slice(long lo, long hi, long maxSize) {
        if (lo == hi) {
            return List.of();
        }
        long first = firstIndex();
        if (lo < first) {
            throw new CompactedException(lo, first);
        }
        if (hi > lastIndex() + 1) {
            throw new IllegalStateException("slice[" + lo + "," + hi + ") out of bound [" + first + "," + lastIndex() + "]");
        }
        List<Entry> out = new ArrayList<>();
        long uOffset = unstable.offset();
        if (lo < uOffset) {
            List<Entry> stored = storage.entries(lo, Math.min(hi, uOffset), maxSize);
            // Storage cut the batch short (size limit): do not glue unstable entries after a gap.
            if (stored.size() < Math.min(hi, uOffset) - lo) {
                return List.copyOf(stored);
            }
            out.addAll(stored);
        }
        if (hi > uOffset) {
            out.addAll(unstable.slice(Math.max(lo, uOffset), hi));
        }
        return limitSize(out, maxSize);
    }

    void restore(Snapshot s) {
        committed = s.getMetadata().getIndex();
        unstable.restore(s);
    }

    /** The longest prefix within {@code maxSize} serialized bytes, but at least one entry. */
    static List<Entry> limitSize(List<Entry> ents, long maxSize) {
        if (ents.isEmpty()) {
            return List.of();
        }
        long size = ents.get(0).getSerializedSize();
        int n = 1;
        while (n < ents.size()) {
            size += ents.get(n).getSerializedSize();
            if (size > maxSize) {
                break;
            }
            n++;
        }
        return List.copyOf(ents.subList(0, n));
    }
}
