package io.etcdj.server.etcdserver;

import io.etcdj.server.api.Callers;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;

/**
 * Proposes a request through Raft and completes with its applied result (etcd's errors as
 * exceptions). The member's own requests (lease expiry, alarms, publishing) carry no caller; a
 * client's carry its identity in their header, for the auth stage of the applier chain.
 */
@FunctionalInterface
interface Proposer {
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder request);

    /** Proposes a client's request as the caller of the current gRPC call (its user and auth revision). */
    default CompletableFuture<ApplyResult> proposeAsCaller(InternalRaftRequest.Builder request) {
        try {
            request.setHeader(Callers.header());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return propose(request);
    }
}
