package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.server.EtcdServer;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/** etcd's Cluster service: the member list as applied from Raft. */
public final class ClusterService extends ClusterGrpc.ClusterImplBase {
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
                    .setHeader(server.header())
                    .addAllMembers(server.membership().members())
                    .build());
        }, out);
    }
}
