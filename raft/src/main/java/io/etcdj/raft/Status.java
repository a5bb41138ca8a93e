package io.etcdj.raft;

import io.etcdj.raft.tracker.ProgressState;
import io.etcdj.raftpb.ConfState;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A snapshot of a node's state for monitoring and tests.
 *
 * @param progress per-member replication progress; empty unless this node leads
 * @param learner whether this node is a learner
 * @param confState the membership this node currently applies
 */
public record Status(long id, long term, long vote, long commit, long applied, long lead, RaftRole role,
                     long leadTransferee, boolean learner, ConfState confState, Map<Long, PeerProgress> progress) {
    public Status {
        // Sorted by member id, so printing a status is stable.
        progress = Collections.unmodifiableSortedMap(new TreeMap<>(progress));
    }

    /** The leader's view of one member's log. */
    public record PeerProgress(long match, long next, ProgressState state, boolean learner, boolean recentActive) {
    }
}
