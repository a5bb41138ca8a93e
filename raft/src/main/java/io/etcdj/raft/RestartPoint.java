package io.etcdj.raft;

import io.etcdj.raft.tracker.ProgressTracker;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import java.util.List;

/**
 * Where a node resumes after a restart: the index to pass as {@link RaftConfig#applied()} and the
 * membership in force at that index, to record with {@link MemoryRaftStorage#setConfState}.
 *
 * <p>The node must start with the membership its application has reached, never with an older
 * one: a node that restarts with the snapshot's membership (empty when there is no snapshot) and
 * re-applies the conf changes one at a time can, between two of them, see itself as the only
 * voter and elect itself. So the membership is rebuilt here, before the node exists, by
 * replaying the committed conf change entries up to the applied index, with the same rule a
 * running node uses.
 *
 * @param applied the last index whose effects the application has (never below the snapshot)
 * @param confState the membership after applying every conf change up to {@code applied}
 */
public record RestartPoint(long applied, ConfState confState) {

    /**
     * @param snapshot the newest snapshot, or null
     * @param hardState the persisted hard state
     * @param entries the persisted entries after the snapshot, in index order
     * @param consistentIndex the last index the application persisted (its own state's marker)
     */
    public static RestartPoint of(Snapshot snapshot, HardState hardState, List<Entry> entries, long consistentIndex) {
        long snapIndex = snapshot == null ? 0 : snapshot.getMetadata().getIndex();
        ConfState base = snapshot == null ? ConfState.getDefaultInstance() : snapshot.getMetadata().getConfState();
        // The application may have persisted entries whose commit index was not yet made durable
        // (commit-only hard states are not synced): Raft cannot start applied past its commit, so
        // those entries are handed out again and the application skips what it already has.
        long applied = Math.max(snapIndex, Math.min(consistentIndex, hardState.getCommit()));
        ProgressTracker t = new ProgressTracker(1);
        base.getVotersList().forEach(v -> t.addVoter(v, 0, 1));
        base.getLearnersList().forEach(l -> t.addLearner(l, 0, 1));
        for (Entry e : entries) {
            if (e.getIndex() <= snapIndex || e.getIndex() > applied) {
                continue;
            }
            if (e.getType() == EntryType.EntryConfChange) {
                ConfChanges.applyTo(t, ConfChanges.decode(e), 1);
            }
        }
        return new RestartPoint(applied, t.confState());
    }
}
