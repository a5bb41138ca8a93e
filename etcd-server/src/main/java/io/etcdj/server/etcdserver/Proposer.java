package io.etcdj.server.etcdserver;

import io.etcdj.server.api.Caller;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.RequestHeader;
import java.util.concurrent.CompletableFuture;

/**
 * Proposes a request through Raft and completes with its applied result (etcd's errors as
 * exceptions). The member's own requests (lease expiry, alarms, publishing) carry no caller; a
 * client's carry its identity in their header, for the auth stage of the applier chain, and wait
 * no longer than its deadline.
 */
@FunctionalInterface
interface Proposer {
    /**
     * Waits at most {@code timeoutNanos} for the result, and never longer than the request timeout.
     * {@code callerHoldsNoLocks}: the calling thread holds none of the member's locks (a client's
     * call), so the Raft loop's turn may run on it.
     */
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder request, long timeoutNanos, boolean callerHoldsNoLocks);

    /** Waits at most {@code timeoutNanos} for the result, and never longer than the request timeout. */
    default CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder request, long timeoutNanos) {
        return propose(request, timeoutNanos, false);
    }

    /** The member's own request: waits up to the request timeout. */
    default CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder request) {
        return propose(request, Caller.NO_DEADLINE);
    }

    /** A client's request, made as {@code caller} (its user and auth revision) and bounded by its deadline. */
    default CompletableFuture<ApplyResult> propose(Caller caller, InternalRaftRequest.Builder request) {
        request.setHeader(RequestHeader.newBuilder().setUsername(caller.auth().username())
                .setAuthRevision(caller.auth().revision()));
        return propose(request, caller.timeoutNanos(), true); // a client's call: the RPC layer holds no lock of ours
    }
}
