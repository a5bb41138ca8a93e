package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import java.util.concurrent.CompletableFuture;

/**
 * What the Lease service needs of the member (owned here, implemented by the server). Grants and
 * revocations are made as their {@link Caller}; renewals and reads need no identity, as in etcd.
 */
public interface LeaseOperations {
    /** Grants a lease, choosing an ID when the request has none. */
    CompletableFuture<LeaseGrantResponse> grant(Caller caller, LeaseGrantRequest r);

    CompletableFuture<LeaseRevokeResponse> revoke(Caller caller, LeaseRevokeRequest r);

    /** Renews on the leader (a follower forwards); an unknown lease answers TTL 0. */
    CompletableFuture<LeaseKeepAliveResponse> keepAlive(long id);

    CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r);

    /** Every lease, read linearizably. */
    CompletableFuture<LeaseLeasesResponse> leases();
}
