package io.etcdj.server.etcdserver;

import io.etcdj.server.wait.ProposalBudget;

/**
 * How far proposals may pile up before new ones are refused with "too many requests": etcd's gap
 * between the committed and the applied index, and a bound on what unanswered proposals hold.
 */
final class ProposalLimits {
    /**
     * etcd's maxGapBetweenApplyAndCommitIndex: while more committed entries than this wait for
     * the apply loop, new proposals are refused with "too many requests".
     */
    static final long MAX_GAP_BETWEEN_APPLY_AND_COMMIT = 5000;
    /**
     * Proposals made here and not yet answered, at most: twice etcd's gap, so on one member the
     * gap check (etcd's) is what a pipelining client meets first.
     */
    static final long MAX_PENDING_PROPOSALS = 2 * MAX_GAP_BETWEEN_APPLY_AND_COMMIT;

    /** Bounds what unanswered proposals hold (see {@link #pendingProposalBytes}). */
    private final ProposalBudget budget = new ProposalBudget(MAX_PENDING_PROPOSALS, pendingProposalBytes());

    /**
     * The bytes unanswered proposals may hold: an eighth of the heap (at least 64 MiB). Each is
     * held about twice until applied (the request, its encoded entry), and the Raft log keeps
     * applied entries until the next snapshot, so this leaves the heap room for both.
     */
    static long pendingProposalBytes() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /** etcd's first check, before a request is even encoded: the apply loop is too far behind. */
    boolean applyTooFarBehind(long backlog) {
        return backlog > MAX_GAP_BETWEEN_APPLY_AND_COMMIT;
    }

    /** Takes room for a proposal of {@code bytes}; false when too many are unanswered. */
    boolean tryAcquire(int bytes) {
        return budget.tryAcquire(bytes);
    }

    /** Proposals made here and not yet answered. */
    long pending() {
        return budget.count();
    }

    /** The proposal was answered (applied, failed or timed out). */
    void release(int bytes) {
        budget.release(bytes);
    }
}
