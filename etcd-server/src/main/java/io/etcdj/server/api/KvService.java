package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.CompactionResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.grpc.stub.StreamObserver;

/** etcd's KV service: checks requests as etcd does and hands them to the member. */
public final class KvService extends KVGrpc.KVImplBase {
    private final KvOperations kv;

    public KvService(KvOperations kv) {
        this.kv = kv;
    }

    @Override
    public void range(RangeRequest r, StreamObserver<RangeResponse> out) {
        Replies.async(() -> {
            RequestChecks.range(r);
            return kv.range(Callers.caller(), r);
        }, out);
    }

    @Override
    public void put(PutRequest r, StreamObserver<PutResponse> out) {
        Replies.async(() -> {
            RequestChecks.put(r);
            return kv.put(Callers.caller(), r);
        }, out);
    }

    @Override
    public void deleteRange(DeleteRangeRequest r, StreamObserver<DeleteRangeResponse> out) {
        Replies.async(() -> {
            RequestChecks.deleteRange(r);
            return kv.deleteRange(Callers.caller(), r);
        }, out);
    }

    @Override
    public void txn(TxnRequest r, StreamObserver<TxnResponse> out) {
        Replies.async(() -> {
            RequestChecks.txn(r, kv.maxTxnOps());
            return kv.txn(Callers.caller(), r);
        }, out);
    }

    @Override
    public void compact(CompactionRequest r, StreamObserver<CompactionResponse> out) {
        Replies.async(() -> kv.compact(Callers.caller(), r), out);
    }
}
