package io.etcdj.server.etcdserver;


import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.raft.Status;
import io.etcdj.raftpb.Message;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.transport.PeerHandler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Connects the peer transport to this member: incoming traffic to Raft, questions to the state machines. */
final class PeerBridge implements PeerHandler {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private final EtcdServer server;

    PeerBridge(EtcdServer server, LogSink logs) {
        this.log = logs.logger("etcdserver/peer");
        this.server = server;
    }

    @Override
    public long memberId() {
        return server.memberId();
    }

    @Override
    public long clusterId() {
        return server.clusterId();
    }

    @Override
    public List<Long> remoteMembers() {
        return server.stateMachines().membership.members().stream().map(Member::getID)
                .filter(id -> id != server.memberId()).toList();
    }

    @Override
    public List<String> peerUrls(long memberId) {
        Member m = server.stateMachines().membership.member(memberId);
        return m == null ? List.of() : m.getPeerURLsList();
    }

    @Override
    public boolean isRemoved(long memberId) {
        return server.stateMachines().membership.isRemoved(memberId);
    }

    @Override
    public void receive(List<Message> messages) {
        server.raft().step(messages);
    }

    @Override
    public void receiveSnapshot(Message m, Path dbFile) {
        server.snapshotArrived(m.getSnapshot().getMetadata().getIndex(), dbFile);
        server.raft().step(List.of(m));
    }

    @Override
    public Path snapshotTempDir() {
        return server.config().snapDir();
    }

    @Override
    public OutgoingSnapshot prepareSnapshot(Message m) {
        // Read the applied index before copying: the copy then holds at least that much, and the
        // receiver skips entries its consistent index already covers.
        long applied = server.appliedIndex();
        Path tmp;
        try {
            tmp = Files.createTempFile(server.config().snapDir(), "outgoing", ".snap.db");
            server.stateMachines().backend.copyTo(tmp);
        } catch (IOException e) {
            throw new IllegalStateException("cannot copy the backend for a snapshot: " + e.getMessage(), e);
        }
        Message merged = server.raft().call(n -> {
            var st = n.status();
            long term = server.raft().termAt(applied, m.getSnapshot().getMetadata().getTerm());
            var meta = m.getSnapshot().getMetadata().toBuilder().setIndex(applied).setTerm(term)
                    .setConfState(st.confState());
            return m.toBuilder().setSnapshot(m.getSnapshot().toBuilder().setMetadata(meta)).build();
        }).join();
        return new OutgoingSnapshot(merged, tmp);
    }

    @Override
    public void unreachable(long memberId) {
        server.raft().call(n -> {
            n.reportUnreachable(memberId);
            return null;
        });
    }

    @Override
    public void snapshotSent(long memberId, boolean ok) {
        server.raft().call(n -> {
            n.reportSnapshot(memberId, ok);
            return null;
        });
    }

    @Override
    public void removedFromCluster() {
        server.removedFromCluster();
    }

    @Override
    public MembersResponse members() {
        MembersResponse.Builder b = MembersResponse.newBuilder().setClusterId(server.clusterId())
                .addAllMembers(server.stateMachines().membership.members());
        return b.build();
    }

    @Override
    public String clusterVersion() {
        return server.memberStatus().clusterVersion();
    }

    @Override
    public LeaseRenewResponse renewLease(long id) {
        if (!server.isLeader()) {
            return LeaseRenewResponse.newBuilder().setNotFound(true).build();
        }
        try {
            return LeaseRenewResponse.newBuilder().setTtl(server.stateMachines().lessor.renew(id)).build();
        } catch (EtcdException e) {
            return LeaseRenewResponse.newBuilder().setNotFound(true).build();
        }
    }

    @Override
    public LeaseTimeToLiveResponse leaseTimeToLive(LeaseTimeToLiveRequest r) {
        return server.localTimeToLive(r);
    }

    @Override
    public HashKVResponse hashKv(long revision) {
        return server.peerHashKv(revision);
    }

    @Override
    public LearnerReadyResponse learnerReady(long memberId) {
        if (!server.isLeader()) {
            return LearnerReadyResponse.newBuilder().setNotLeader(true).build();
        }
        Status st = server.raft().call(n -> n.status()).join();
        Status.PeerProgress p = st.progress().get(memberId);
        boolean ready = p != null && LearnerPromoter.inSync(p.match(), st.commit());
        if (!ready) {
            log.warn("learner is not ready to be promoted", "member-id", Long.toHexString(memberId),
                    "match", p == null ? 0 : p.match(), "leader-commit", st.commit());
        }
        return LearnerReadyResponse.newBuilder().setReady(ready).build();
    }

}
