package io.etcdj.raft;

/**
 * A proposal (or read request) was not accepted: there is no known leader, leadership is being
 * transferred, this node was removed, the uncommitted log is over its size limit, or a conf change
 * is already pending. The caller may retry later; nothing was appended.
 */
public final class ProposalDroppedException extends RaftException {
    private static final long serialVersionUID = 1L;

    public ProposalDroppedException(String reason) {
        super("raft proposal dropped: " + reason);
    }
}
