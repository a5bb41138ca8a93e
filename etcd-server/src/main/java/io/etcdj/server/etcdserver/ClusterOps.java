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
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.metrics.Metrics;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * Runtime reconfiguration: the membership's rules validate a change, which then travels as a Raft
 * conf change carrying the member record and is applied on every member. Headers carry no
 * revision, as etcd's Cluster responses.
 */
final class ClusterOps implements ClusterOperations {
    private final Membership membership;
    private final ConfChangeProposer confChanges;
    /** Whether the leader considers a learner caught up (asked off the caller's thread). */
    private final LongFunction<CompletableFuture<Boolean>> learnerReady;
    private final Reads reads;
    private final Headers headers;
    /** --strict-reconfig-check, --max-learners, --initial-cluster-token. */
    private final ServerConfig config;
    private final Metrics metrics;

    ClusterOps(Membership membership, ConfChangeProposer confChanges, LongFunction<CompletableFuture<Boolean>> learnerReady,
               Reads reads, Headers headers, ServerConfig config, Metrics metrics) {
        this.membership = membership;
        this.confChanges = confChanges;
        this.learnerReady = learnerReady;
        this.reads = reads;
        this.headers = headers;
        this.config = config;
        this.metrics = metrics;
    }

    @Override
    public CompletableFuture<MemberListResponse> list(boolean linearizable) {
        CompletableFuture<Void> ready = linearizable ? reads.barrier() : CompletableFuture.completedFuture(null);
        return ready.thenApply(x -> MemberListResponse.newBuilder().setHeader(headers.header(0))
                .addAllMembers(membership.members()).build());
    }

    @Override
    public CompletableFuture<MemberAddResponse> add(MemberAddRequest r) {
        membership.checkAdd(r.getPeerURLsList(), r.getIsLearner(), config.strictReconfigCheck(),
                config.options().maxLearners());
        long id = MemberIds.memberId(r.getPeerURLsList(), config.initialClusterToken(),
                System.currentTimeMillis() / 1000);
        Member m = Member.newBuilder().setID(id).addAllPeerURLs(r.getPeerURLsList()).setIsLearner(r.getIsLearner()).build();
        ConfChangeType type = r.getIsLearner() ? ConfChangeType.ConfChangeAddLearnerNode : ConfChangeType.ConfChangeAddNode;
        return confChanges.propose(type, id, m).thenApply(res -> MemberAddResponse.newBuilder()
                .setHeader(headers.header(0)).setMember(m).addAllMembers(membership.members()).build());
    }

    @Override
    public CompletableFuture<MemberRemoveResponse> remove(long id) {
        membership.checkRemove(id, config.strictReconfigCheck());
        return confChanges.propose(ConfChangeType.ConfChangeRemoveNode, id, null).thenApply(res ->
                MemberRemoveResponse.newBuilder().setHeader(headers.header(0)).addAllMembers(membership.members()).build());
    }

    @Override
    public CompletableFuture<MemberUpdateResponse> update(MemberUpdateRequest r) {
        Member updated = membership.checkUpdate(r.getID(), r.getPeerURLsList());
        return confChanges.propose(ConfChangeType.ConfChangeUpdateNode, r.getID(), updated).thenApply(res ->
                MemberUpdateResponse.newBuilder().setHeader(headers.header(0)).addAllMembers(membership.members()).build());
    }

    @Override
    public CompletableFuture<MemberPromoteResponse> promote(long id) {
        membership.checkPromote(id);
        return learnerReady.apply(id)
                .thenCompose(ready -> {
                    if (!ready) {
                        throw EtcdError.LEARNER_NOT_READY.exception();
                    }
                    return confChanges.propose(ConfChangeType.ConfChangeAddNode, id, null);
                })
                .whenComplete((res, err) -> {
                    if (err == null) {
                        metrics.learnerPromoteSuccesses.inc();
                    }
                })
                .thenApply(res -> MemberPromoteResponse.newBuilder().setHeader(headers.header(0))
                        .addAllMembers(membership.members()).build());
    }
}
