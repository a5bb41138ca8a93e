package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateRequest;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.api.ClusterOperations;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.membership.Membership;
import java.util.concurrent.CompletableFuture;

/**
 * Runtime reconfiguration: the membership's rules validate a change, which then travels as a Raft
 * conf change carrying the member record and is applied on every member. Headers carry no
 * revision, as etcd's Cluster responses.
 */
final class ClusterOps implements ClusterOperations {
    private final EtcdServer server;
    private final io.etcdj.server.metrics.Metrics metrics;

    ClusterOps(EtcdServer server, io.etcdj.server.metrics.Metrics metrics) {
        this.metrics = metrics;
        this.server = server;
    }

    private Membership membership() {
        return server.stateMachines().membership;
    }

    @Override
    public CompletableFuture<MemberListResponse> list(boolean linearizable) {
        CompletableFuture<Void> ready = linearizable ? server.linearizableBarrier() : CompletableFuture.completedFuture(null);
        return ready.thenApply(x -> MemberListResponse.newBuilder().setHeader(server.header(0))
                .addAllMembers(membership().members()).build());
    }

    @Override
    public CompletableFuture<MemberAddResponse> add(MemberAddRequest r) {
        membership().checkAdd(r.getPeerURLsList(), r.getIsLearner(), server.config().strictReconfigCheck(),
                server.config().options().maxLearners());
        long id = MemberIds.memberId(r.getPeerURLsList(), server.config().initialClusterToken(),
                System.currentTimeMillis() / 1000);
        Member m = Member.newBuilder().setID(id).addAllPeerURLs(r.getPeerURLsList()).setIsLearner(r.getIsLearner()).build();
        ConfChangeType type = r.getIsLearner() ? ConfChangeType.ConfChangeAddLearnerNode : ConfChangeType.ConfChangeAddNode;
        return server.proposeConfChange(type, id, m).thenApply(res -> MemberAddResponse.newBuilder()
                .setHeader(server.header(0)).setMember(m).addAllMembers(membership().members()).build());
    }

    @Override
    public CompletableFuture<MemberRemoveResponse> remove(long id) {
        membership().checkRemove(id, server.config().strictReconfigCheck());
        return server.proposeConfChange(ConfChangeType.ConfChangeRemoveNode, id, null).thenApply(res ->
                MemberRemoveResponse.newBuilder().setHeader(server.header(0)).addAllMembers(membership().members()).build());
    }

    @Override
    public CompletableFuture<MemberUpdateResponse> update(MemberUpdateRequest r) {
        Member updated = membership().checkUpdate(r.getID(), r.getPeerURLsList());
        return server.proposeConfChange(ConfChangeType.ConfChangeUpdateNode, r.getID(), updated).thenApply(res ->
                MemberUpdateResponse.newBuilder().setHeader(server.header(0)).addAllMembers(membership().members()).build());
    }

    @Override
    public CompletableFuture<MemberPromoteResponse> promote(long id) {
        membership().checkPromote(id);
        return server.learnerReadyAsync(id)
                .thenCompose(ready -> {
                    if (!ready) {
                        throw EtcdError.LEARNER_NOT_READY.exception();
                    }
                    return server.proposeConfChange(ConfChangeType.ConfChangeAddNode, id, null);
                })
                .whenComplete((res, err) -> {
                    if (err == null) {
                        metrics.learnerPromoteSuccesses.inc();
                    }
                })
                .thenApply(res -> MemberPromoteResponse.newBuilder().setHeader(server.header(0))
                        .addAllMembers(membership().members()).build());
    }
}
