package io.etcdj.raft.quorum;

/** Outcome of counting votes in a configuration. */
public enum VoteResult {
    /** Not decided: missing votes could still swing it. */
    PENDING,
    /** A quorum refused. */
    LOST,
    /** A quorum granted. */
    WON
}
