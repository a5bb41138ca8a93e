package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the Raft loop reports, on the raft thread, handed to what it concerns: leader changes to
 * the metrics, the lessor (only the leader expires leases) and the leader transfers waiting;
 * committed entries to the apply loop; installed snapshots to the snapshot policy; a failure
 * stops the member.
 */
final class RaftEvents implements RaftLoop.Listener {
    private final Log log;
    private final Metrics metrics;
    private final Lessor lessor;
    private final LeaderWaits leaderWaits;
    private final ApplyLoop apply;
    private final SnapshotPolicy snapshots;
    private final Lifecycle lifecycle;
    private final long memberId;
    /** A new leader extends every lease by the election timeout. */
    private final long electionNanos;
    private long lastLead;

    RaftEvents(Metrics metrics, Lessor lessor, LeaderWaits leaderWaits, ApplyLoop apply, SnapshotPolicy snapshots,
               Lifecycle lifecycle, long memberId, long electionMillis, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.metrics = metrics;
        this.lessor = lessor;
        this.leaderWaits = leaderWaits;
        this.apply = apply;
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
        this.memberId = memberId;
        this.electionNanos = TimeUnit.MILLISECONDS.toNanos(electionMillis);
    }

    @Override
    public void leaderChanged(long lead, long term, boolean isLeader) {
        if (lead != lastLead) {
            log.info(lead == 0 ? "raft.node lost leader" : "raft.node elected leader",
                    "local-member-id", MemberIds.hex(memberId), "leader", MemberIds.hex(lead), "term", term);
            lastLead = lead;
            metrics.leaderChanges.inc();
        }
        leaderWaits.leaderIs(lead);
        metrics.hasLeader.set(lead != 0 ? 1 : 0);
        metrics.isLeader.set(isLeader ? 1 : 0);
        if (isLeader && !lessor.isPrimary()) {
            lessor.promote(electionNanos);
        } else if (!isLeader && lessor.isPrimary()) {
            lessor.demote();
        }
    }

    @Override
    public void committed(List<Entry> entries, long term) {
        apply.submit(entries, term);
    }

    @Override
    public void snapshotInstalled(Snapshot snapshot) {
        Path db = snapshots.installed(snapshot);
        if (db != null) {
            apply.submitSnapshot(db, snapshot.getMetadata().getIndex());
        }
    }

    @Override
    public void fatal(Throwable t) {
        if (lifecycle.stoppingOrClosed()) {
            return;
        }
        log.fatal("raft loop failed; stopping the member", t);
        lifecycle.stopForFailure();
    }
}
