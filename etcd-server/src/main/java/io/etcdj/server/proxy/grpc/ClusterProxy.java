package io.etcdj.server.proxy.grpc;

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
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;

/**
 * The Cluster service with --resolver-prefix: the member list is the list of registered proxies
 * (name and advertised address), so clients that sync their endpoints stay on the proxies; the
 * other calls go to the cluster.
 */
final class ClusterProxy extends ClusterGrpc.ClusterImplBase {
    private final ClusterGrpc.ClusterStub upstream;
    private final Registration registration;

    ClusterProxy(Channel channel, Registration registration) {
        this.upstream = ClusterGrpc.newStub(channel);
        this.registration = registration;
    }

    @Override
    public void memberList(MemberListRequest r, StreamObserver<MemberListResponse> out) {
        MemberListResponse.Builder b = MemberListResponse.newBuilder();
        try {
            for (String[] m : registration.members()) {
                b.addMembers(Member.newBuilder().setName(m[0]).addClientURLs(m[1]));
            }
        } catch (StatusRuntimeException e) {
            out.onError(e);
            return;
        } catch (RuntimeException e) {
            out.onError(Status.UNKNOWN.withDescription(String.valueOf(e.getMessage())).asRuntimeException());
            return;
        }
        out.onNext(b.build());
        out.onCompleted();
    }

    @Override
    public void memberAdd(MemberAddRequest r, StreamObserver<MemberAddResponse> out) {
        upstream.memberAdd(r, out);
    }

    @Override
    public void memberRemove(MemberRemoveRequest r, StreamObserver<MemberRemoveResponse> out) {
        upstream.memberRemove(r, out);
    }

    @Override
    public void memberUpdate(MemberUpdateRequest r, StreamObserver<MemberUpdateResponse> out) {
        upstream.memberUpdate(r, out);
    }

    @Override
    public void memberPromote(MemberPromoteRequest r, StreamObserver<MemberPromoteResponse> out) {
        upstream.memberPromote(r, out);
    }
}
