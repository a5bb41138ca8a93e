package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.api.v3electionpb.CampaignRequest;
import io.etcdj.api.v3electionpb.CampaignResponse;
import io.etcdj.api.v3electionpb.ElectionGrpc;
import io.etcdj.api.v3electionpb.LeaderKey;
import io.etcdj.api.v3electionpb.LeaderRequest;
import io.etcdj.api.v3electionpb.LeaderResponse;
import io.etcdj.api.v3electionpb.ProclaimRequest;
import io.etcdj.api.v3electionpb.ProclaimResponse;
import io.etcdj.api.v3electionpb.ResignRequest;
import io.etcdj.api.v3electionpb.ResignResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * etcd's v3election service, built as etcd's election recipe: a campaigner's key is
 * {@code name/<lease hex>} attached to its lease and holding its value; the leader is the key with
 * the lowest create revision under {@code name/}; a campaign wins once every older key is deleted.
 */
public final class ElectionService extends ElectionGrpc.ElectionImplBase {
    private final KvOperations kv;
    private final WatchOperations watches;

    public ElectionService(KvOperations kv, WatchOperations watches) {
        this.kv = kv;
        this.watches = watches;
    }

    @Override
    public void campaign(CampaignRequest r, StreamObserver<CampaignResponse> out) {
        CallerBound asCaller = CallerBound.kv(kv);
        // As etcd's election: a campaign given up before it is won resigns (its key goes at once).
        ((ServerCallStreamObserver<CampaignResponse>) out).setOnCancelHandler(() ->
                asCaller.withoutDeadline().deleteRange(DeleteRangeRequest.newBuilder().setKey(candidateKey(r)).build()));
        Replies.async(() -> campaign(asCaller, r), out);
    }

    @Override
    public void proclaim(ProclaimRequest r, StreamObserver<ProclaimResponse> out) {
        Replies.async(() -> {
            requireLeader(r.hasLeader());
            LeaderKey l = r.getLeader();
            return CallerBound.kv(kv).txn(guarded(l, RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                    .setKey(l.getKey()).setValue(r.getValue()).setLease(l.getLease())).build()))
                    .thenApply(t -> {
                        if (!t.getSucceeded()) {
                            throw Status.UNKNOWN.withDescription("election: not leader").asRuntimeException();
                        }
                        return ProclaimResponse.newBuilder().setHeader(t.getHeader()).build();
                    });
        }, out);
    }

    @Override
    public void resign(ResignRequest r, StreamObserver<ResignResponse> out) {
        Replies.async(() -> {
            requireLeader(r.hasLeader());
            LeaderKey l = r.getLeader();
            return CallerBound.kv(kv).txn(guarded(l, RequestOp.newBuilder().setRequestDeleteRange(
                    DeleteRangeRequest.newBuilder().setKey(l.getKey())).build()))
                    .thenApply(t -> ResignResponse.newBuilder().setHeader(t.getHeader()).build());
        }, out);
    }

    @Override
    public void leader(LeaderRequest r, StreamObserver<LeaderResponse> out) {
        Replies.async(() -> CallerBound.kv(kv).range(leaderRange(prefix(r.getName()))).thenApply(rr -> {
            if (rr.getKvsCount() == 0) {
                throw Status.UNKNOWN.withDescription("election: no leader").asRuntimeException();
            }
            return LeaderResponse.newBuilder().setHeader(rr.getHeader()).setKv(rr.getKvs(0)).build();
        }), out);
    }

    @Override
    public void observe(LeaderRequest r, StreamObserver<LeaderResponse> out) {
        ServerCallStreamObserver<LeaderResponse> call = (ServerCallStreamObserver<LeaderResponse>) out;
        AtomicReference<CompletableFuture<?>> pending = new AtomicReference<>();
        call.setOnCancelHandler(() -> {
            CompletableFuture<?> f = pending.getAndSet(CompletableFuture.completedFuture(null));
            if (f != null) {
                f.cancel(false);
            }
        });
        observeFrom(CallerBound.kv(kv), prefix(r.getName()), null, call, pending);
    }

    /** Sends the leader if it differs from {@code last}, then waits for the next change under prefix. */
    private void observeFrom(CallerBound kv, ByteString prefix, KeyValue last, ServerCallStreamObserver<LeaderResponse> call,
                             AtomicReference<CompletableFuture<?>> pending) {
        if (call.isCancelled()) {
            return;
        }
        CompletableFuture<RangeResponse> read = kv.range(leaderRange(prefix));
        read.whenComplete((rr, err) -> {
            if (err != null) {
                call.onError(GrpcErrors.toStatus(err));
                return;
            }
            KeyValue sent = last;
            if (rr.getKvsCount() > 0) {
                KeyValue leader = rr.getKvs(0);
                if (last == null || !last.getKey().equals(leader.getKey())
                        || last.getModRevision() != leader.getModRevision()) {
                    synchronized (call) {
                        if (call.isCancelled()) {
                            return;
                        }
                        call.onNext(LeaderResponse.newBuilder().setHeader(rr.getHeader()).setKv(leader).build());
                    }
                    sent = leader;
                }
            }
            KeyValue next = sent;
            CompletableFuture<Void> change = Recipes.change(watches, prefix, Recipes.prefixEnd(prefix),
                    rr.getHeader().getRevision() + 1, false);
            CompletableFuture<?> previous = pending.getAndSet(change);
            if (previous != null && previous.isDone() && call.isCancelled()) {
                change.cancel(false);
                return;
            }
            change.thenRun(() -> observeFrom(kv, prefix, next, call, pending));
        });
    }

    private static ByteString candidateKey(CampaignRequest r) {
        return prefix(r.getName()).concat(ByteString.copyFrom(Long.toHexString(r.getLease()), StandardCharsets.US_ASCII));
    }

    private CompletableFuture<CampaignResponse> campaign(CallerBound kv, CampaignRequest r) {
        ByteString prefix = prefix(r.getName());
        ByteString key = candidateKey(r);
        TxnRequest txn = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.CREATE)
                        .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0))
                .addSuccess(RequestOp.newBuilder().setRequestPut(
                        PutRequest.newBuilder().setKey(key).setValue(r.getValue()).setLease(r.getLease())))
                .addFailure(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(key)))
                .build();
        return kv.txn(txn).thenCompose(t -> {
            if (t.getSucceeded()) {
                return CompletableFuture.completedFuture(t.getHeader().getRevision());
            }
            KeyValue existing = t.getResponses(0).getResponseRange().getKvs(0);
            long rev = existing.getCreateRevision();
            if (existing.getValue().equals(r.getValue())) {
                return CompletableFuture.completedFuture(rev);
            }
            LeaderKey l = LeaderKey.newBuilder().setKey(key).setRev(rev).setLease(r.getLease()).build();
            return kv.txn(guarded(l, RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                    .setKey(key).setValue(r.getValue()).setLease(r.getLease())).build())).thenApply(x -> rev);
        }).thenCompose(rev -> Recipes.waitDeletes(kv, watches, prefix, rev - 1).thenApply(at ->
                CampaignResponse.newBuilder().setHeader(watches.header(at)).setLeader(LeaderKey.newBuilder()
                        .setName(r.getName()).setKey(key).setRev(rev).setLease(r.getLease())).build()));
    }

    /** A txn doing {@code op} only while the leader key still has the leader's create revision. */
    private static TxnRequest guarded(LeaderKey l, RequestOp op) {
        return TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(l.getKey()).setTarget(Compare.CompareTarget.CREATE)
                        .setResult(Compare.CompareResult.EQUAL).setCreateRevision(l.getRev()))
                .addSuccess(op).build();
    }

    private static void requireLeader(boolean present) {
        if (!present) {
            throw Status.UNKNOWN.withDescription("\"leader\" field must be provided").asRuntimeException();
        }
    }

    private static ByteString prefix(ByteString name) {
        return name.concat(ByteString.copyFromUtf8("/"));
    }

    private static RangeRequest leaderRange(ByteString prefix) {
        return RangeRequest.newBuilder().setKey(prefix).setRangeEnd(Recipes.prefixEnd(prefix))
                .setSortOrder(RangeRequest.SortOrder.ASCEND).setSortTarget(RangeRequest.SortTarget.CREATE)
                .setLimit(1).build();
    }
}
