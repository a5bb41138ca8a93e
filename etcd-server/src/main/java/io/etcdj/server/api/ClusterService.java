package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteRequest;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveRequest;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateRequest;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.membership.Membership;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * etcd's Cluster service (its headers carry no revision, as etcd's): the member list and runtime reconfiguration. Changes are Raft conf
 * changes carrying the member record, applied on every member; with --strict-reconfig-check a
 * change that would leave the cluster without a quorum of started members is refused.
 */
public final class ClusterService extends ClusterGrpc.ClusterImplBase {
    /** etcd's --max-learners default. */
    private static final int MAX_LEARNERS = 1;

    private final EtcdServer server;

    public ClusterService(EtcdServer server) {
        this.server = server;
    }

    @Override
    public void memberList(MemberListRequest r, StreamObserver<MemberListResponse> out) {
        Replies.async(() -> {
            CompletableFuture<Void> ready = r.getLinearizable()
                    ? server.linearizableBarrier() : CompletableFuture.completedFuture(null);
            return ready.thenApply(x -> MemberListResponse.newBuilder()
                    .setHeader(server.header(0))
                    .addAllMembers(server.membership().members())
                    .build());
        }, out);
    }

    @Override
    public void memberAdd(MemberAddRequest r, StreamObserver<MemberAddResponse> out) {
        Replies.async(() -> {
            checkUrls(r.getPeerURLsList(), 0);
            Membership ms = server.membership();
            if (r.getIsLearner()) {
                long learners = ms.members().stream().filter(Member::getIsLearner).count();
                if (learners >= MAX_LEARNERS) {
                    throw EtcdError.TOO_MANY_LEARNERS.exception();
                }
            } else if (server.config().strictReconfigCheck() && !enoughStartedAfter(1, 0)) {
                throw EtcdError.MEMBER_NOT_ENOUGH_STARTED.exception();
            }
            long id = MemberIds.memberId(r.getPeerURLsList(), server.config().initialClusterToken(),
                    System.currentTimeMillis() / 1000);
            Member m = Member.newBuilder().setID(id).addAllPeerURLs(r.getPeerURLsList()).setIsLearner(r.getIsLearner()).build();
            ConfChangeType type = r.getIsLearner() ? ConfChangeType.ConfChangeAddLearnerNode : ConfChangeType.ConfChangeAddNode;
            return server.proposeConfChange(type, id, m).thenApply(res -> MemberAddResponse.newBuilder()
                    .setHeader(server.header(0)).setMember(m).addAllMembers(server.membership().members()).build());
        }, out);
    }

    @Override
    public void memberRemove(MemberRemoveRequest r, StreamObserver<MemberRemoveResponse> out) {
        Replies.async(() -> {
            Member m = server.membership().member(r.getID());
            if (m == null) {
                throw EtcdError.MEMBER_NOT_FOUND.exception();
            }
            if (!m.getIsLearner() && server.config().strictReconfigCheck() && !enoughStartedAfter(0, r.getID())) {
                throw EtcdError.MEMBER_NOT_ENOUGH_STARTED.exception();
            }
            return server.proposeConfChange(ConfChangeType.ConfChangeRemoveNode, r.getID(), null)
                    .thenApply(res -> MemberRemoveResponse.newBuilder().setHeader(server.header(0))
                            .addAllMembers(server.membership().members()).build());
        }, out);
    }

    @Override
    public void memberUpdate(MemberUpdateRequest r, StreamObserver<MemberUpdateResponse> out) {
        Replies.async(() -> {
            Member m = server.membership().member(r.getID());
            if (m == null) {
                throw EtcdError.MEMBER_NOT_FOUND.exception();
            }
            checkUrls(r.getPeerURLsList(), r.getID());
            Member updated = m.toBuilder().clearPeerURLs().addAllPeerURLs(r.getPeerURLsList()).build();
            return server.proposeConfChange(ConfChangeType.ConfChangeUpdateNode, r.getID(), updated)
                    .thenApply(res -> MemberUpdateResponse.newBuilder().setHeader(server.header(0))
                            .addAllMembers(server.membership().members()).build());
        }, out);
    }

    @Override
    public void memberPromote(MemberPromoteRequest r, StreamObserver<MemberPromoteResponse> out) {
        Replies.async(() -> {
            Member m = server.membership().member(r.getID());
            if (m == null) {
                throw EtcdError.MEMBER_NOT_FOUND.exception();
            }
            if (!m.getIsLearner()) {
                throw EtcdError.MEMBER_NOT_LEARNER.exception();
            }
            return CompletableFuture.supplyAsync(() -> server.learnerReady(r.getID()))
                    .thenCompose(ready -> {
                        if (!ready) {
                            throw EtcdError.LEARNER_NOT_READY.exception();
                        }
                        return server.proposeConfChange(ConfChangeType.ConfChangeAddNode, r.getID(), null);
                    })
                    .thenApply(res -> MemberPromoteResponse.newBuilder().setHeader(server.header(0))
                            .addAllMembers(server.membership().members()).build());
        }, out);
    }

    /** Peer URLs must parse as http(s) URLs with host and port, and belong to no other member. */
    private void checkUrls(List<String> urls, long self) {
        if (urls.isEmpty()) {
            throw EtcdError.MEMBER_BAD_URLS.exception();
        }
        for (String s : urls) {
            try {
                URI u = new URI(s);
                if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null || u.getPort() < 0) {
                    throw EtcdError.MEMBER_BAD_URLS.exception();
                }
            } catch (java.net.URISyntaxException e) {
                throw EtcdError.MEMBER_BAD_URLS.exception();
            }
        }
        for (Member m : server.membership().members()) {
            if (m.getID() != self && m.getPeerURLsList().stream().anyMatch(urls::contains)) {
                throw EtcdError.PEER_URL_EXIST.exception();
            }
        }
    }

    /**
     * Whether, after adding {@code add} voters or removing voter {@code removing}, the voters that
     * have started (published their name) still make a quorum, as etcd's strict reconfig check.
     */
    private boolean enoughStartedAfter(int add, long removing) {
        List<Member> voters = server.membership().members().stream().filter(m -> !m.getIsLearner()).toList();
        long started = voters.stream().filter(m -> m.getID() != removing && !m.getName().isEmpty()).count();
        int total = voters.size() + add - (removing != 0 ? 1 : 0);
        return started >= total / 2 + 1;
    }
}
