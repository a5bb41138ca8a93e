package io.etcdj.server.etcdserver;

import io.etcdj.server.apply.ApplyResult;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;

/**
 * Proposes a request through Raft and completes with its applied result (etcd's errors as
 * exceptions). The request's header (the caller) is the proposer's business: requests of a
 * client carry it, the member's own (lease expiry, alarms, publishing) carry none.
 */
@FunctionalInterface
interface Proposer {
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder request);
}
