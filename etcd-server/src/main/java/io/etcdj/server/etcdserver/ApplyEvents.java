package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.WriteBatch;

/**
 * What the apply loop reports, on the apply thread, handed to what it concerns: conf changes to
 * {@link ConfChanges}, the applied index to Raft and the snapshot policy, a write past the quota
 * to the alarms, a failure to the lifecycle.
 *
 * <p>The two loops report to each other (Raft hands committed entries to the apply loop, which
 * tells Raft what it applied), so one side is connected after both exist: the Raft side here,
 * by {@link #connect}, before either loop starts.
 */
final class ApplyEvents implements ApplyLoop.Hooks {
    private final Metrics metrics;
    private final MemberAlarms alarms;
    private final Lifecycle lifecycle;
    private final SnapshotPolicy snapshots;
    private RaftLoop raft;
    private ConfChanges confChanges;

    ApplyEvents(Metrics metrics, MemberAlarms alarms, SnapshotPolicy snapshots, Lifecycle lifecycle) {
        this.metrics = metrics;
        this.alarms = alarms;
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
    }

    /** Called once, while the member is built: the apply thread starts later and sees these. */
    void connect(RaftLoop raft, ConfChanges confChanges) {
        this.raft = raft;
        this.confChanges = confChanges;
    }

    @Override
    public void confChange(ConfChange cc, WriteBatch batch, boolean fresh) {
        confChanges.apply(cc, batch, fresh);
    }

    @Override
    public void applied(long index, boolean confChange) {
        raft.appliedTo(index, confChange);
        metrics.appliedIndex.set(index);
        snapshots.applied(index, raft);
    }

    @Override
    public void fatal(Throwable t) {
        lifecycle.stopForFailure();
    }

    @Override
    public void quotaExceeded() {
        alarms.raiseNoSpace();
    }
}
