package io.etcdj.server.it;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.harness.EtcdMember;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Blocking gRPC stubs for one member, with a deadline on every call so a hung server fails the test. */
final class GrpcEndpoint implements AutoCloseable {
    private static final long DEADLINE_SECONDS = 15;

    private final EtcdMember member;
    private final ManagedChannel channel;

    GrpcEndpoint(EtcdMember member) {
        this.member = member;
        this.channel = NettyChannelBuilder.forTarget(member.endpoint()).usePlaintext()
                .maxInboundMessageSize(64 << 20).build();
    }

    EtcdMember member() {
        return member;
    }

    /** The one connection every stub here uses: calls on it share one event loop of the server. */
    ManagedChannel channel() {
        return channel;
    }

    KVGrpc.KVBlockingStub kv() {
        return KVGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    LeaseGrpc.LeaseBlockingStub lease() {
        return LeaseGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    LeaseGrpc.LeaseStub leaseAsync() {
        return LeaseGrpc.newStub(channel);
    }

    MaintenanceGrpc.MaintenanceBlockingStub maintenance() {
        return MaintenanceGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    ClusterGrpc.ClusterBlockingStub cluster() {
        return ClusterGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    WatchGrpc.WatchStub watch() {
        return WatchGrpc.newStub(channel);
    }

    /** The current revision, read linearizably. */
    long revision() {
        return kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("\0")).build())
                .getHeader().getRevision();
    }

    ResponseHeader header() {
        return cluster().memberList(MemberListRequest.getDefaultInstance()).getHeader();
    }

    /** An endpoint for each member of {@code c}, in its order (close them with {@link #closeAll}). */
    static List<GrpcEndpoint> forMembers(ProcessCluster c) {
        List<GrpcEndpoint> eps = new ArrayList<>();
        for (EtcdProcess m : c.members()) {
            eps.add(new GrpcEndpoint(m));
        }
        return eps;
    }

    static void closeAll(List<GrpcEndpoint> eps) throws InterruptedException {
        for (GrpcEndpoint e : eps) {
            e.close();
        }
    }

    /** The index of the endpoint whose member reports itself leader, waiting up to 30 s for one. */
    static int leaderIndex(List<GrpcEndpoint> eps) throws InterruptedException {
        return Eventually.get("a leader", Duration.ofSeconds(30), () -> {
            for (int i = 0; i < eps.size(); i++) {
                try {
                    StatusResponse s = eps.get(i).maintenance().status(StatusRequest.getDefaultInstance());
                    if (s.getLeader() != 0 && s.getLeader() == s.getHeader().getMemberId()) {
                        return i;
                    }
                } catch (RuntimeException e) {
                    // down, restarting or not serving yet
                }
            }
            return null;
        });
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
