package io.etcdj.raft;

/** Volatile state worth telling the driver about: who leads and which role this node plays. Never persisted. */
public record SoftState(long lead, RaftRole role) {
    // Written out: a record's generated equals goes through invokedynamic method handles, which the
    // C1 compiler a member runs does not inline; the Raft loop asks this on every turn.
    @Override
    public boolean equals(Object o) {
        return o instanceof SoftState s && s.lead == lead && s.role == role;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(lead) * 31 + role.hashCode();
    }

    boolean same(long lead, RaftRole role) {
        return this.lead == lead && this.role == role;
    }
}
