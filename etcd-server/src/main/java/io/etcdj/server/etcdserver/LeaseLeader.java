package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import java.util.concurrent.CompletableFuture;

/** What only the leader's lessor answers (a follower forwards it): renewals and time-to-live. */
interface LeaseLeader {
    /** Renews lease {@code id}; completes with its TTL, or fails with etcd's lease-not-found or no-leader. */
    CompletableFuture<Long> renew(long id);

    CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r);
}
