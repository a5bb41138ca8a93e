package io.etcdj.raft.quorum;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;

/**
 * A set of voters whose decisions need a strict majority. Pure arithmetic: it knows nothing of
 * terms, messages or logs, which keeps the quorum rules testable on their own.
 */
public final class MajorityConfig {
    /** Sorted: iteration order decides message order, and runs must be reproducible. */
    private final SortedSet<Long> voters;
    /** The same ids unboxed, for the commit computation a leader runs on every append answer. */
    private final long[] ids;

    public MajorityConfig(Collection<Long> voters) {
        this.voters = Collections.unmodifiableSortedSet(new TreeSet<>(voters));
        this.ids = this.voters.stream().mapToLong(Long::longValue).toArray();
    }

    /** The voters in ascending id order. */
    public SortedSet<Long> voters() {
        return voters;
    }

    public int size() {
        return voters.size();
    }

    public boolean contains(long id) {
        return voters.contains(id);
    }

    /** Votes needed to win: a strict majority. */
    public int quorum() {
        return voters.size() / 2 + 1;
    }

    /**
     * The largest index acknowledged by a quorum, given each voter's acknowledged index (absent
     * voters count as 0). An empty configuration commits nothing.
     */
    public long committedIndex(Map<Long, Long> acked) {
        return committedIndex(id -> acked.getOrDefault(id, 0L));
    }

    /** {@link #committedIndex(Map)} with each voter's acknowledged index looked up by {@code acked}. */
    public long committedIndex(LongUnaryOperator acked) {
        if (ids.length == 0) {
            return 0;
        }
        long[] indexes = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            // Insertion sort: configurations have a handful of voters.
            long v = acked.applyAsLong(ids[i]);
            int j = i;
            while (j > 0 && indexes[j - 1] > v) {
                indexes[j] = indexes[j - 1];
                j--;
            }
            indexes[j] = v;
        }
        // Ascending order: the element at size - quorum is held by at least a quorum of voters.
        return indexes[indexes.length - quorum()];
    }

    /** Counts the granted (true) and refused (false) votes of this configuration's voters. */
    public VoteResult voteResult(Map<Long, Boolean> votes) {
        if (voters.isEmpty()) {
            // Nobody to ask; treated as won so that an empty configuration never blocks (it is never promotable).
            return VoteResult.WON;
        }
        int granted = 0;
        int missing = 0;
        for (long id : voters) {
            Boolean v = votes.get(id);
            if (v == null) {
                missing++;
            } else if (v) {
                granted++;
            }
        }
        int q = quorum();
        if (granted >= q) {
            return VoteResult.WON;
        }
        if (granted + missing >= q) {
            return VoteResult.PENDING;
        }
        return VoteResult.LOST;
    }

    @Override
    public String toString() {
        return "voters=" + new TreeSet<>(voters);
    }
}
