package io.etcdj.launcher.client;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.MemberPromoteRequest;
import io.etcdj.api.etcdserverpb.MemberRemoveRequest;
import io.etcdj.api.etcdserverpb.MoveLeaderRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.launcher.LauncherException;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/** A gRPC connection to one member's client URL. Close it when done. */
public final class MemberClient implements AutoCloseable {
    private final URI url;
    private final ManagedChannel channel;
    private final Duration timeout;

    public MemberClient(URI url, Optional<ClientTls> tls, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(url.getHost(), url.getPort());
        if ("https".equals(url.getScheme())) {
            ClientTls t = tls.orElseThrow(() -> new LauncherException(url + " uses https but no client certificate is known"));
            try {
                builder.sslContext(GrpcSslContexts.forClient()
                        .trustManager(t.caCert().toFile())
                        .keyManager(t.clientCert().toFile(), t.clientKey().toFile())
                        .build());
            } catch (SSLException e) {
                throw new LauncherException("cannot load TLS material for " + url + ": " + e.getMessage());
            }
        } else {
            builder.usePlaintext();
        }
        this.channel = builder.build();
    }

    public URI url() {
        return url;
    }

    /** The connection, for callers that need services this class does not wrap (KV, Watch). */
    public Channel channel() {
        return channel;
    }

    public StatusResponse status() {
        return call(() -> MaintenanceGrpc.newBlockingStub(channel).withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .status(StatusRequest.getDefaultInstance()));
    }

    public List<Member> memberList() {
        return call(() -> cluster().memberList(MemberListRequest.getDefaultInstance()).getMembersList());
    }

    public MemberAddResponse memberAdd(String peerUrl, boolean learner) {
        return call(() -> cluster().memberAdd(MemberAddRequest.newBuilder().addPeerURLs(peerUrl).setIsLearner(learner).build()));
    }

    public List<Member> memberRemove(long id) {
        return call(() -> cluster().memberRemove(MemberRemoveRequest.newBuilder().setID(id).build()).getMembersList());
    }

    public List<Member> memberPromote(long id) {
        return call(() -> cluster().memberPromote(MemberPromoteRequest.newBuilder().setID(id).build()).getMembersList());
    }

    /** Maintenance.MoveLeader: only the leader accepts it. */
    public void moveLeader(long targetId) {
        call(() -> MaintenanceGrpc.newBlockingStub(channel).withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .moveLeader(MoveLeaderRequest.newBuilder().setTargetID(targetId).build()));
    }

    private ClusterGrpc.ClusterBlockingStub cluster() {
        return ClusterGrpc.newBlockingStub(channel).withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T> T call(Supplier<T> rpc) {
        try {
            return rpc.get();
        } catch (StatusRuntimeException e) {
            throw new MemberCallException(url, e);
        }
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
