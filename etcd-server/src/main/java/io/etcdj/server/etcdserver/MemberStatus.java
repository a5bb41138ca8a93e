package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.DowngradeInfo;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.version.Versions;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.watch.WatchHub;
import java.util.List;

/**
 * What the member says about itself: response headers, the Status RPC, the gauges of a /metrics
 * scrape, the cluster version, the Raft leader, term and indexes (etcd's server.go getters).
 */
public final class MemberStatus implements MemberState {
    private final ServerConfig config;
    private final StateMachines sm;
    private final RaftLoop raft;
    private final ApplyLoop apply;
    private final WatchHub hub;
    private final Waiters<ApplyResult> waiters;
    private final long memberId;

    MemberStatus(ServerConfig config, StateMachines sm, RaftLoop raft, ApplyLoop apply, WatchHub hub, Waiters<ApplyResult> waiters,
                 long memberId) {
        this.config = config;
        this.sm = sm;
        this.raft = raft;
        this.apply = apply;
        this.hub = hub;
        this.waiters = waiters;
        this.memberId = memberId;
    }

    public long clusterId() {
        return sm.membership.clusterId();
    }

    public long leader() {
        return raft.lead();
    }

    public boolean isLeader() {
        return raft.isLeader();
    }

    public long term() {
        return raft.term();
    }

    public long committedIndex() {
        return raft.commitIndex();
    }

    public long appliedIndex() {
        return apply.appliedIndex();
    }

    /** The raised alarms, as /health reports them. */
    public List<AlarmMember> alarms() {
        return sm.alarms.list();
    }

    /** Whether this member is a learner (as the membership it has applied says). */
    public boolean isLearner() {
        Member self = sm.membership.member(memberId);
        return self != null && self.getIsLearner();
    }

    @Override
    public ResponseHeader header() {
        return header(sm.store.currentRevision());
    }

    @Override
    public ResponseHeader header(long revision) {
        return ResponseHeader.newBuilder().setClusterId(clusterId()).setMemberId(memberId)
                .setRevision(revision).setRaftTerm(raft.term()).build();
    }

    /**
     * The cluster version: our version, or a downgrade job's target while one is enabled (etcd 3.6
     * lowers the cluster version to the target when the job starts).
     */
    @Override
    public String clusterVersion() {
        var d = sm.downgrade.info();
        return d.enabled() ? d.targetVersion() : Versions.CLUSTER;
    }

    @Override
    public StatusResponse status() {
        StatusResponse.Builder b = StatusResponse.newBuilder()
                .setHeader(header())
                .setVersion(Versions.SERVER)
                .setDbSize(sm.backend.size())
                .setDbSizeInUse(sm.backend.sizeInUse())
                .setLeader(raft.lead())
                .setRaftIndex(raft.lastIndex())
                .setRaftTerm(raft.term())
                .setRaftAppliedIndex(apply.appliedIndex())
                .setStorageVersion(Versions.STORAGE)
                .setDbSizeQuota(config.quotaBackendBytes());
        b.setIsLearner(isLearner());
        sm.alarms.list().forEach(a -> b.addErrors("memberID:" + a.getMemberID() + " alarm:" + a.getAlarm()));
        var d = sm.downgrade.info();
        b.setDowngradeInfo(DowngradeInfo.newBuilder().setEnabled(d.enabled()).setTargetVersion(d.targetVersion()));
        return b.build();
    }

    /** The member's gauges for a /metrics scrape. */
    public Metrics.Gauges metricsGauges() {
        String cv = clusterVersion();
        return new Metrics.Gauges(raft.commitIndex(), config.quotaBackendBytes(), sm.backend.size(), sm.backend.recentSizeInUse(),
                sm.store.currentRevision(), sm.store.compactRevision(), hub.watcherCount(), sm.lessor.leases().size(),
                memberId, isLearner(), sm.store.liveKeys(), hub.unsyncedCount(), sm.auth.revision(),
                waiters.pending(),
                cv.chars().filter(ch -> ch == '.').count() > 1 ? cv.substring(0, cv.lastIndexOf('.')) : cv);
    }
}
