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

    public ClusterService(ClusterOperations cluster) {
        this.cluster = cluster;
    }

    @Override
    public void memberList(MemberListRequest r, StreamObserver<MemberListResponse> out) {
        Replies.async(() -> cluster.list(r.getLinearizable()), out);
    }

    @Override
    public void memberAdd(MemberAddRequest r, StreamObserver<MemberAddResponse> out) {
        Replies.async(() -> cluster.add(r), out);
    }

    @Override
    public void memberRemove(MemberRemoveRequest r, StreamObserver<MemberRemoveResponse> out) {
        Replies.async(() -> cluster.remove(r.getID()), out);
    }

    @Override
    public void memberUpdate(MemberUpdateRequest r, StreamObserver<MemberUpdateResponse> out) {
        Replies.async(() -> cluster.update(r), out);
    }

    @Override
    public void memberPromote(MemberPromoteRequest r, StreamObserver<MemberPromoteResponse> out) {
        Replies.async(() -> cluster.promote(r.getID()), out);
    }
}
