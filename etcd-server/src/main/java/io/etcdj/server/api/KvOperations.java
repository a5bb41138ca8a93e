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
 * already checked; every response carries its header; failures complete the future with etcd's
 * errors.
 */
public interface KvOperations {
    /** Linearizable unless the request asks for a serializable read. */
    CompletableFuture<RangeResponse> range(RangeRequest r);

    CompletableFuture<PutResponse> put(PutRequest r);

    CompletableFuture<DeleteRangeResponse> deleteRange(DeleteRangeRequest r);

    CompletableFuture<TxnResponse> txn(TxnRequest r);

    CompletableFuture<CompactionResponse> compact(CompactionRequest r);

    /** --max-txn-ops, for the request checks. */
    int maxTxnOps();
}
