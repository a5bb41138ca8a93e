package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.api.v3lockpb.LockGrpc;
import io.etcdj.api.v3lockpb.LockRequest;
import io.etcdj.api.v3lockpb.LockResponse;
import io.etcdj.api.v3lockpb.UnlockRequest;
import io.etcdj.api.v3lockpb.UnlockResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * etcd's v3lock service, built as etcd's mutex recipe: the owner key is {@code name/<lease hex>}
 * attached to the lease; the lock is held once every key under {@code name/} with a lower create
 * revision has been deleted (waited for with a watch on the nearest older key, one at a time).
 */
public final class LockService extends LockGrpc.LockImplBase {
    private final KvOperations kv;
    private final WatchOperations watches;

    public LockService(KvOperations kv, WatchOperations watches) {
        this.kv = kv;
        this.watches = watches;
    }

    @Override
    public void lock(LockRequest r, StreamObserver<LockResponse> out) {
        CallerBound asCaller = CallerBound.kv(kv);
        // As etcd's mutex: a client that gives up waiting (cancels, or its deadline passes) takes
        // its key away at once, rather than leaving it to block others until its lease expires.
        ((ServerCallStreamObserver<LockResponse>) out).setOnCancelHandler(() ->
                asCaller.withoutDeadline().deleteRange(DeleteRangeRequest.newBuilder().setKey(ownerKey(r)).build()));
        Replies.async(() -> acquire(asCaller, r), out);
    }

    @Override
    public void unlock(UnlockRequest r, StreamObserver<UnlockResponse> out) {
        Replies.async(() -> CallerBound.kv(kv).deleteRange(DeleteRangeRequest.newBuilder().setKey(r.getKey()).build())
                .thenApply(d -> UnlockResponse.newBuilder().setHeader(d.getHeader()).build()), out);
    }

    private static ByteString ownerKey(LockRequest r) {
        return r.getName().concat(ByteString.copyFromUtf8("/"))
                .concat(ByteString.copyFrom(Long.toHexString(r.getLease()), StandardCharsets.US_ASCII));
    }

    private CompletableFuture<LockResponse> acquire(CallerBound kv, LockRequest r) {
        ByteString prefix = r.getName().concat(ByteString.copyFromUtf8("/"));
        ByteString key = ownerKey(r);
        RangeRequest owner = RangeRequest.newBuilder().setKey(prefix).setRangeEnd(Recipes.prefixEnd(prefix))
                .setSortOrder(RangeRequest.SortOrder.ASCEND)
                .setSortTarget(RangeRequest.SortTarget.CREATE).setLimit(1).build();
        TxnRequest txn = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.CREATE)
                        .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0))
                .addSuccess(RequestOp.newBuilder().setRequestPut(
                        PutRequest.newBuilder().setKey(key).setLease(r.getLease())))
                .addSuccess(RequestOp.newBuilder().setRequestRange(owner))
                .addFailure(RequestOp.newBuilder().setRequestRange(
                        RangeRequest.newBuilder().setKey(key)))
                .addFailure(RequestOp.newBuilder().setRequestRange(owner))
                .build();
        return kv.txn(txn).thenCompose(t -> {
            long myRev = myRevision(t);
            List<KeyValue> owners = t.getResponses(1).getResponseRange().getKvsList();
            if (!owners.isEmpty() && owners.get(0).getCreateRevision() == myRev) {
                return CompletableFuture.completedFuture(reply(key, t.getHeader().getRevision()));
            }
            return Recipes.waitDeletes(kv, watches, prefix, myRev - 1).thenApply(rev -> reply(key, rev));
        });
    }

    private static long myRevision(TxnResponse t) {
        if (t.getSucceeded()) {
            return t.getHeader().getRevision();
        }
        return t.getResponses(0).getResponseRange().getKvs(0).getCreateRevision();
    }

    private LockResponse reply(ByteString key, long revision) {
        return LockResponse.newBuilder().setHeader(watches.header(revision)).setKey(key).build();
    }
}
