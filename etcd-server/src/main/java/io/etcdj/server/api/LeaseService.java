package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesRequest;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.lease.Lessor;
import io.etcdj.serverpb.InternalRaftRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/** etcd's Lease service: grant and revoke through Raft; renewals and TTL queries on the leader. */
public final class LeaseService extends LeaseGrpc.LeaseImplBase {
    private final EtcdServer server;

    public LeaseService(EtcdServer server) {
        this.server = server;
    }

    @Override
    public void leaseGrant(LeaseGrantRequest r, StreamObserver<LeaseGrantResponse> out) {
        Replies.async(() -> {
            if (r.getTTL() > Lessor.MAX_TTL_SECONDS) {
                throw EtcdError.LEASE_TTL_TOO_LARGE.exception();
            }
            LeaseGrantRequest withId = r.getID() == 0 ? r.toBuilder().setID(server.nextLeaseId()).build() : r;
            return server.propose(InternalRaftRequest.newBuilder().setLeaseGrant(withId), LeaseGrantResponse.class);
        }, out);
    }

    @Override
    public void leaseRevoke(LeaseRevokeRequest r, StreamObserver<LeaseRevokeResponse> out) {
        Replies.async(() -> server.propose(InternalRaftRequest.newBuilder().setLeaseRevoke(r), LeaseRevokeResponse.class), out);
    }

    @Override
    public void leaseTimeToLive(LeaseTimeToLiveRequest r, StreamObserver<LeaseTimeToLiveResponse> out) {
        Replies.async(() -> server.timeToLive(r), out);
    }

    @Override
    public void leaseLeases(LeaseLeasesRequest r, StreamObserver<LeaseLeasesResponse> out) {
        Replies.async(() -> server.linearizableBarrier().thenApply(x -> {
            LeaseLeasesResponse.Builder b = LeaseLeasesResponse.newBuilder();
            server.lessor().leases().stream().map(Lease::id).sorted()
                    .forEach(id -> b.addLeases(LeaseStatus.newBuilder().setID(id)));
            return b.setHeader(server.header()).build();
        }), out);
    }

    @Override
    public StreamObserver<LeaseKeepAliveRequest> leaseKeepAlive(StreamObserver<LeaseKeepAliveResponse> out) {
        ServerCallStreamObserver<LeaseKeepAliveResponse> stream = (ServerCallStreamObserver<LeaseKeepAliveResponse>) out;
        return new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveRequest req) {
                CompletableFuture<Long> ttl = server.renewLease(req.getID());
                ttl.whenComplete((t, err) -> {
                    if (err != null && !(GrpcErrors.unwrap(err) instanceof EtcdException e
                            && e.error() == EtcdError.LEASE_NOT_FOUND)) {
                        synchronized (stream) {
                            if (!stream.isCancelled()) {
                                stream.onError(GrpcErrors.toStatus(err));
                            }
                        }
                        return;
                    }
                    LeaseKeepAliveResponse resp = LeaseKeepAliveResponse.newBuilder()
                            .setHeader(server.header()).setID(req.getID()).setTTL(err != null ? 0 : t).build();
                    synchronized (stream) {
                        if (!stream.isCancelled()) {
                            stream.onNext(resp);
                        }
                    }
                });
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                synchronized (stream) {
                    stream.onCompleted();
                }
            }
        };
    }
}
