package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * KV operations made as the caller of one gRPC call, from whatever thread they are made: the Lock
 * and Election services issue requests from watch and future callbacks, and each must be checked
 * as the client's own (etcd's recipes run in the client's context too). The caller is resolved
 * when the first request needs it, and each request waits no longer than the call's deadline.
 */
final class CallerBound {
    private final KvOperations kv;
    private final Supplier<Caller> caller;

    private CallerBound(KvOperations kv, Supplier<Caller> caller) {
        this.kv = kv;
        this.caller = caller;
    }

    /** {@code kv} bound to the call this thread serves. */
    static CallerBound kv(KvOperations kv) {
        return new CallerBound(kv, Callers.deferred());
    }

    /**
     * The same caller without the call's deadline, for the clean-up a cancelled call leaves behind
     * (its deadline may be what cancelled it; etcd's recipes unlock with the client's context).
     */
    CallerBound withoutDeadline() {
        return new CallerBound(kv, () -> Caller.of(caller.get().auth()));
    }

    CompletableFuture<RangeResponse> range(RangeRequest r) {
        return as(c -> kv.range(c, r));
    }

    CompletableFuture<DeleteRangeResponse> deleteRange(DeleteRangeRequest r) {
        return as(c -> kv.deleteRange(c, r));
    }

    CompletableFuture<TxnResponse> txn(TxnRequest r) {
        return as(c -> kv.txn(c, r));
    }

    /** A caller that cannot be resolved (an invalid token) fails the request with etcd's error. */
    private <T> CompletableFuture<T> as(Function<Caller, CompletableFuture<T>> request) {
        Caller c;
        try {
            c = caller.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return request.apply(c);
    }
}
