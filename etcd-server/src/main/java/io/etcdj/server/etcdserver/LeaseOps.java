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
import io.etcdj.server.api.Caller;
import io.etcdj.server.api.LeaseOperations;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.lease.Lessor;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;

/** The lease operations: grant and revoke through Raft, renewals and TTLs on the leader. */
final class LeaseOps implements LeaseOperations {
    private final Proposer proposer;
    private final Reads reads;
    private final Headers headers;
    /** Renewals and time-to-live, answered by the leader. */
    private final LeaseLeader leader;
    private final Lessor lessor;
    /** A new lease ID, for a grant that names none. */
    private final LongSupplier nextId;

    LeaseOps(Proposer proposer, Reads reads, Headers headers, LeaseLeader leader, Lessor lessor, LongSupplier nextId) {
        this.proposer = proposer;
        this.reads = reads;
        this.headers = headers;
        this.leader = leader;
        this.lessor = lessor;
        this.nextId = nextId;
    }

    @Override
    public CompletableFuture<LeaseGrantResponse> grant(Caller caller, LeaseGrantRequest r) {
        LeaseGrantRequest withId = r.getID() == 0 ? r.toBuilder().setID(nextId.getAsLong()).build() : r;
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setLeaseGrant(withId)).thenApply(res ->
                ((LeaseGrantResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<LeaseRevokeResponse> revoke(Caller caller, LeaseRevokeRequest r) {
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setLeaseRevoke(r)).thenApply(res ->
                ((LeaseRevokeResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<LeaseKeepAliveResponse> keepAlive(long id) {
        return leader.renew(id).handle((ttl, err) -> {
            if (err != null && !(unwrap(err) instanceof EtcdException e && e.error() == EtcdError.LEASE_NOT_FOUND)) {
                throw err instanceof CompletionException ce ? ce : new CompletionException(err);
            }
            return LeaseKeepAliveResponse.newBuilder().setHeader(headers.header()).setID(id)
                    .setTTL(err != null ? 0 : ttl).build();
        });
    }

    @Override
    public CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
        return leader.timeToLive(r);
    }

    @Override
    public CompletableFuture<LeaseLeasesResponse> leases() {
        return reads.barrier().thenApply(x -> {
            LeaseLeasesResponse.Builder b = LeaseLeasesResponse.newBuilder();
            lessor.leases().stream().map(Lease::id).sorted()
                    .forEach(id -> b.addLeases(LeaseStatus.newBuilder().setID(id)));
            return b.setHeader(headers.header()).build();
        });
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
