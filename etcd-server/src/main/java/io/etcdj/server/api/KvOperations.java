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
import java.util.concurrent.CompletableFuture;

/**
 * What the KV service needs of the member (owned here, implemented by the server). Requests are
 * already checked; each is made as its {@link Caller} (whose permissions the member checks, and
 * whose deadline bounds the wait); every response carries its header; failures complete the
 * future with etcd's errors.
 */
public interface KvOperations {
    /** Linearizable unless the request asks for a serializable read. */
    CompletableFuture<RangeResponse> range(Caller caller, RangeRequest r);

    CompletableFuture<PutResponse> put(Caller caller, PutRequest r);

    CompletableFuture<DeleteRangeResponse> deleteRange(Caller caller, DeleteRangeRequest r);

    CompletableFuture<TxnResponse> txn(Caller caller, TxnRequest r);

    CompletableFuture<CompactionResponse> compact(Caller caller, CompactionRequest r);

    /** --max-txn-ops, for the request checks. */
    int maxTxnOps();
}
