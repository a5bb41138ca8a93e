package io.etcdj.server.etcdserver;

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
import io.etcdj.server.api.Caller;
import io.etcdj.server.api.KvOperations;
import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.serverpb.InternalRaftRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The KV operations: writes proposed through Raft, reads from the local store after the ReadIndex barrier. */
final class KvOps implements KvOperations {
    private final Proposer proposer;
    private final Reads reads;
    private final Headers headers;
    private final AuthStore auth;
    private final MvccStore store;
    /** Makes the backend durable, off the caller's thread (a physical compaction answers after it). */
    private final Supplier<CompletableFuture<Void>> syncBackend;
    private final Metrics metrics;
    private final SlowApplies slowApplies;
    /** --warning-apply-duration: reads slower than this are logged. */
    private final Duration warnAfter;
    private final int maxTxnOps;

    KvOps(Proposer proposer, Reads reads, Headers headers, AuthStore auth, MvccStore store,
          Supplier<CompletableFuture<Void>> syncBackend, Metrics metrics, SlowApplies slowApplies, Duration warnAfter,
          int maxTxnOps) {
        this.proposer = proposer;
        this.reads = reads;
        this.headers = headers;
        this.auth = auth;
        this.store = store;
        this.syncBackend = syncBackend;
        this.metrics = metrics;
        this.slowApplies = slowApplies;
        this.warnAfter = warnAfter;
        this.maxTxnOps = maxTxnOps;
    }

    @Override
    public CompletableFuture<RangeResponse> range(Caller caller, RangeRequest r) {
        metrics.ranges.inc();
        long start = System.nanoTime();
        CompletableFuture<Void> ready = r.getSerializable()
                ? CompletableFuture.completedFuture(null) : reads.barrier();
        return ready.thenCompose(x -> {
            // checked once the read is ordered, against the permissions it will be served under
            auth.checkRead(caller.auth(), r.getKey().toByteArray(), r.getRangeEnd().toByteArray());
            // on an event loop: a read that would wait for a writer waits off the loop
            return reads.read(v -> v.range(r).setHeader(headers.header(v.revision())).build());
        }).whenComplete((resp, err) -> slowApplies.checkRange(warnAfter, start, r, resp, err));
    }

    @Override
    public CompletableFuture<PutResponse> put(Caller caller, PutRequest r) {
        metrics.put(r.getKey().size() + r.getValue().size());
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setPut(r)).thenApply(res ->
                ((PutResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<DeleteRangeResponse> deleteRange(Caller caller, DeleteRangeRequest r) {
        metrics.deletes.inc();
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setDeleteRange(r)).thenApply(res ->
                ((DeleteRangeResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<TxnResponse> txn(Caller caller, TxnRequest r) {
        metrics.txns.inc();
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setTxn(r)).thenApply(res ->
                ((TxnResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<CompactionResponse> compact(Caller caller, CompactionRequest r) {
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setCompaction(r)).thenCompose(res -> {
            CompactionResponse resp = ((CompactionResponse) res.response()).toBuilder()
                    .setHeader(headers.header(res.revision())).build();
            if (!r.getPhysical()) {
                // as etcd: answered once applied; the compactor removes the history in the background
                return CompletableFuture.completedFuture(resp);
            }
            // physical: once the history is gone, made durable so that a crash does not resume it
            return store.whenCompacted(r.getRevision())
                    .thenCompose(x -> syncBackend.get())
                    .thenApply(x -> resp);
        });
    }

    @Override
    public int maxTxnOps() {
        return maxTxnOps;
    }
}
