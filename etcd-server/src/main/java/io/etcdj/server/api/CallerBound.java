package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.CompactionResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.grpc.Context;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * KV operations that act as the caller of the gRPC call that made them, from whatever thread they
 * are called: the Lock and Election services issue requests from watch and future callbacks, and
 * each must be checked as the client's own (etcd's recipes run in the client's context too).
 */
final class CallerBound implements KvOperations {
    private final KvOperations kv;
    private final Context context;

    private CallerBound(KvOperations kv, Context context) {
        this.kv = kv;
        this.context = context;
    }

    /** {@code kv} bound to the current call. */
    static KvOperations kv(KvOperations kv) {
        return new CallerBound(kv, Context.current());
    }

    private <T> CompletableFuture<T> in(Supplier<CompletableFuture<T>> call) {
        Context previous = context.attach();
        try {
            return call.get();
        } finally {
            context.detach(previous);
        }
    }

    @Override
    public CompletableFuture<RangeResponse> range(RangeRequest r) {
        return in(() -> kv.range(r));
    }

    @Override
    public CompletableFuture<PutResponse> put(PutRequest r) {
        return in(() -> kv.put(r));
    }

    @Override
    public CompletableFuture<DeleteRangeResponse> deleteRange(DeleteRangeRequest r) {
        return in(() -> kv.deleteRange(r));
    }

    @Override
    public CompletableFuture<TxnResponse> txn(TxnRequest r) {
        return in(() -> kv.txn(r));
    }

    @Override
    public CompletableFuture<CompactionResponse> compact(CompactionRequest r) {
        return in(() -> kv.compact(r));
    }

    @Override
    public int maxTxnOps() {
        return kv.maxTxnOps();
    }
}
