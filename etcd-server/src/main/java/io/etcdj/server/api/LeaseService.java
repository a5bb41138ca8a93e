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
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.server.error.EtcdError;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** etcd's Lease service: grant and revoke through Raft; renewals and TTL queries on the leader. */
public final class LeaseService extends LeaseGrpc.LeaseImplBase {
    /** etcd's MaxLeaseTTL (about 285 years): a grant asking for more is refused before it reaches the member. */
    private static final long MAX_TTL_SECONDS = 9_000_000_000L;

    private final LeaseOperations leases;

    public LeaseService(LeaseOperations leases) {
        this.leases = leases;
    }

    @Override
    public void leaseGrant(LeaseGrantRequest r, StreamObserver<LeaseGrantResponse> out) {
        Replies.async(() -> {
            if (r.getTTL() > MAX_TTL_SECONDS) {
                throw EtcdError.LEASE_TTL_TOO_LARGE.exception();
            }
            return leases.grant(Callers.caller(), r);
        }, out);
    }

    @Override
    public void leaseRevoke(LeaseRevokeRequest r, StreamObserver<LeaseRevokeResponse> out) {
        Replies.async(() -> leases.revoke(Callers.caller(), r), out);
    }

    @Override
    public void leaseTimeToLive(LeaseTimeToLiveRequest r, StreamObserver<LeaseTimeToLiveResponse> out) {
        Replies.async(() -> leases.timeToLive(r), out);
    }

    @Override
    public void leaseLeases(LeaseLeasesRequest r, StreamObserver<LeaseLeasesResponse> out) {
        Replies.async(leases::leases, out);
    }

    @Override
    public StreamObserver<LeaseKeepAliveRequest> leaseKeepAlive(StreamObserver<LeaseKeepAliveResponse> out) {
        return new KeepAliveStream((ServerCallStreamObserver<LeaseKeepAliveResponse>) out);
    }

    /**
     * One keep-alive stream. Each request is answered once its renewal completes (a follower's
     * goes to the leader); a client that half-closes after its requests still gets every answer
     * before the stream ends, as etcd answers them.
     */
    private final class KeepAliveStream implements StreamObserver<LeaseKeepAliveRequest> {
        private final ServerCallStreamObserver<LeaseKeepAliveResponse> stream;
        private int pending;
        private boolean halfClosed;
        private boolean ended;

        KeepAliveStream(ServerCallStreamObserver<LeaseKeepAliveResponse> stream) {
            this.stream = stream;
        }

        @Override
        public void onNext(LeaseKeepAliveRequest req) {
            synchronized (this) {
                pending++;
            }
            leases.keepAlive(req.getID()).whenComplete((resp, err) -> {
                synchronized (this) {
                    pending--;
                    if (ended || stream.isCancelled()) {
                        return;
                    }
                    if (err != null) {
                        ended = true;
                        stream.onError(GrpcErrors.toStatus(err));
                        return;
                    }
                    stream.onNext(resp);
                    if (halfClosed && pending == 0) {
                        ended = true;
                        stream.onCompleted();
                    }
                }
            });
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public synchronized void onCompleted() {
            halfClosed = true;
            if (pending == 0 && !ended && !stream.isCancelled()) {
                ended = true;
                stream.onCompleted();
            }
        }
    }
}
