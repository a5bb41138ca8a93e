package io.etcdj.raft.tracker;

/**
 * The leader's view of one peer's log: {@code match} is the highest index known to be replicated
 * there, {@code next} the next index to send. The state decides how eagerly appends flow.
 */
public final class Progress {
    private long match;
    private long next;
    private ProgressState state = ProgressState.PROBE;
    /** In PROBE: an append was sent and we wait for its answer (or a heartbeat answer) before the next. */
    private boolean probeSent;
    /** In SNAPSHOT: index of the snapshot being sent. */
    private long pendingSnapshot;
    /** Heard from this peer since the last check-quorum round. */
    private boolean recentActive;
    private boolean learner;
    private final Inflights inflights;

    public Progress(long match, long next, int maxInflight, boolean learner) {
        this.match = match;
        this.next = next;
        this.learner = learner;
        this.inflights = new Inflights(maxInflight);
    }

    public long match() {
        return match;
    }

    public long next() {
        return next;
    }

    public ProgressState state() {
        return state;
    }

    public long pendingSnapshot() {
        return pendingSnapshot;
    }

    public boolean recentActive() {
        return recentActive;
    }

    public void setRecentActive(boolean value) {
        this.recentActive = value;
    }

    public boolean isLearner() {
        return learner;
    }

    public void setLearner(boolean value) {
        this.learner = value;
    }

    public Inflights inflights() {
        return inflights;
    }

    public boolean probeSent() {
        return probeSent;
    }

    public void setProbeSent(boolean value) {
        this.probeSent = value;
    }

    /** Starts over after a leadership change: nothing is known about the peer's log. */
    public void reset(long newMatch, long newNext) {
        resetState(ProgressState.PROBE);
        match = newMatch;
        next = newNext;
        recentActive = false;
    }

    /** The snapshot could not be delivered: forget it so the next probe starts from match. */
    public void abortSnapshot() {
        pendingSnapshot = 0;
    }

    /** Whether the leader must hold back appends to this peer for now. */
    public boolean isPaused() {
        return switch (state) {
            case PROBE -> probeSent;
            case REPLICATE -> inflights.full();
            case SNAPSHOT -> true;
        };
    }

    public void becomeProbe() {
        if (state == ProgressState.SNAPSHOT) {
            // The snapshot may have been applied: resume right after it rather than from match.
            long pending = pendingSnapshot;
            resetState(ProgressState.PROBE);
            next = Math.max(match + 1, pending + 1);
        } else {
            resetState(ProgressState.PROBE);
            next = match + 1;
        }
    }

    public void becomeReplicate() {
        resetState(ProgressState.REPLICATE);
        next = match + 1;
    }

    public void becomeSnapshot(long snapshotIndex) {
        resetState(ProgressState.SNAPSHOT);
        pendingSnapshot = snapshotIndex;
    }

    /** Raises match (and next) on an acknowledgement; false if the ack is stale. */
    public boolean maybeUpdate(long index) {
        boolean updated = false;
        if (match < index) {
            match = index;
            updated = true;
            probeSent = false;
        }
        next = Math.max(next, index + 1);
        return updated;
    }

    /** Optimistic bump of next after streaming an append in REPLICATE. */
    public void optimisticUpdate(long lastSent) {
        next = lastSent + 1;
    }

    /**
     * Handles a rejected append of index {@code rejected}: moves next back, guided by the
     * follower's hint. Returns false when the rejection is stale and must be ignored.
     */
    public boolean maybeDecrTo(long rejected, long matchHint) {
        if (state == ProgressState.REPLICATE) {
            if (rejected <= match) {
                return false;
            }
            next = match + 1;
            return true;
        }
        if (next - 1 != rejected) {
            return false;
        }
        next = Math.max(Math.min(rejected, matchHint + 1), match + 1);
        probeSent = false;
        return true;
    }

    private void resetState(ProgressState newState) {
        probeSent = false;
        pendingSnapshot = 0;
        state = newState;
        inflights.reset();
    }

    @Override
    public String toString() {
        return state + " match=" + match + " next=" + next + (learner ? " learner" : "")
                + (state == ProgressState.SNAPSHOT ? " pendingSnap=" + pendingSnapshot : "");
    }
}
