package io.etcdj.raft.tracker;

/** How the leader currently feeds one follower's log. */
public enum ProgressState {
    /** Unknown match: send one append at a time and wait for the answer before the next. */
    PROBE,
    /** Known match: stream appends optimistically, bounded by the in-flight window. */
    REPLICATE,
    /** The follower needs a snapshot; appends pause until it reports the snapshot's fate. */
    SNAPSHOT
}
