package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
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
import io.grpc.stub.StreamObserver;

/** etcd's Cluster service: the member list and runtime reconfiguration, validated and applied by the member. */
public final class ClusterService extends ClusterGrpc.ClusterImplBase {
    private final ClusterOperations cluster;
    private final AuthOperations auth;

    public ClusterService(ClusterOperations cluster, AuthOperations auth) {
        this.cluster = cluster;
        this.auth = auth;
    }

    /** Membership changes need the root role once auth is enabled (the list does not). */
    private void checkAdmin() {
        auth.checkAdmin(Callers.current());
    }

    @Override
    public void memberList(MemberListRequest r, StreamObserver<MemberListResponse> out) {
        Replies.async(() -> cluster.list(r.getLinearizable()), out);
    }

    @Override
    public void memberAdd(MemberAddRequest r, StreamObserver<MemberAddResponse> out) {
        Replies.async(() -> {
            checkAdmin();
            return cluster.add(r);
        }, out);
    }

    @Override
    public void memberRemove(MemberRemoveRequest r, StreamObserver<MemberRemoveResponse> out) {
        Replies.async(() -> {
            checkAdmin();
            return cluster.remove(r.getID());
        }, out);
    }

    @Override
    public void memberUpdate(MemberUpdateRequest r, StreamObserver<MemberUpdateResponse> out) {
        Replies.async(() -> {
            checkAdmin();
            return cluster.update(r);
        }, out);
    }

    @Override
    public void memberPromote(MemberPromoteRequest r, StreamObserver<MemberPromoteResponse> out) {
        Replies.async(() -> {
            checkAdmin();
            return cluster.promote(r.getID());
        }, out);
    }
}
