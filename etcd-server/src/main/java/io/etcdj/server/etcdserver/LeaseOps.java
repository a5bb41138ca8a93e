package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.server.api.LeaseOperations;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.lease.Lease;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The lease operations: grant and revoke through Raft, renewals and TTLs on the leader. */
final class LeaseOps implements LeaseOperations {
    private final EtcdServer server;

    LeaseOps(EtcdServer server) {
        this.server = server;
    }

    @Override
    public CompletableFuture<LeaseGrantResponse> grant(LeaseGrantRequest r) {
        LeaseGrantRequest withId = r.getID() == 0 ? r.toBuilder().setID(server.nextLeaseId()).build() : r;
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setLeaseGrant(withId)).thenApply(res ->
                ((LeaseGrantResponse) res.response()).toBuilder().setHeader(server.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<LeaseRevokeResponse> revoke(LeaseRevokeRequest r) {
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setLeaseRevoke(r)).thenApply(res ->
                ((LeaseRevokeResponse) res.response()).toBuilder().setHeader(server.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<LeaseKeepAliveResponse> keepAlive(long id) {
        return server.renewLease(id).handle((ttl, err) -> {
            if (err != null && !(unwrap(err) instanceof EtcdException e && e.error() == EtcdError.LEASE_NOT_FOUND)) {
                throw err instanceof CompletionException ce ? ce : new CompletionException(err);
            }
            return LeaseKeepAliveResponse.newBuilder().setHeader(server.header()).setID(id)
                    .setTTL(err != null ? 0 : ttl).build();
        });
    }

    @Override
    public CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
        return server.timeToLive(r);
    }

    @Override
    public CompletableFuture<LeaseLeasesResponse> leases() {
        return server.linearizableBarrier().thenApply(x -> {
            LeaseLeasesResponse.Builder b = LeaseLeasesResponse.newBuilder();
            server.stateMachines().lessor.leases().stream().map(Lease::id).sorted()
                    .forEach(id -> b.addLeases(LeaseStatus.newBuilder().setID(id)));
            return b.setHeader(server.header()).build();
        });
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
