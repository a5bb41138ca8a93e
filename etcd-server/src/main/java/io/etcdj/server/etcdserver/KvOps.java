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
import io.etcdj.server.api.Callers;
import io.etcdj.server.api.KvOperations;
import io.etcdj.server.auth.AuthInfo;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;

/** The KV operations: writes proposed through Raft, reads from the local store after the ReadIndex barrier. */
final class KvOps implements KvOperations {
    private final EtcdServer server;
    private final Metrics metrics;
    private final SlowApplies slowApplies;

    KvOps(EtcdServer server, Metrics metrics, SlowApplies slowApplies) {
        this.server = server;
        this.metrics = metrics;
        this.slowApplies = slowApplies;
    }

    @Override
    public CompletableFuture<RangeResponse> range(RangeRequest r) {
        metrics.ranges.inc();
        long start = System.nanoTime();
        AuthInfo caller = Callers.current();
        CompletableFuture<Void> ready = r.getSerializable()
                ? CompletableFuture.completedFuture(null) : server.linearizableBarrier();
        return ready.thenCompose(x -> {
            // checked once the read is ordered, against the permissions it will be served under
            server.stateMachines().auth.checkRead(caller, r.getKey().toByteArray(), r.getRangeEnd().toByteArray());
            // on an event loop: a read that would wait for a writer waits off the loop
            return server.read(v -> v.range(r).setHeader(server.header(v.revision())).build());
        }).whenComplete((resp, err) -> slowApplies.checkRange(
                server.config().options().watchdog().warningApplyDuration(), start, r, resp, err));
    }

    @Override
    public CompletableFuture<PutResponse> put(PutRequest r) {
        metrics.put(r.getKey().size() + r.getValue().size());
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setPut(r)).thenApply(res ->
                ((PutResponse) res.response()).toBuilder().setHeader(server.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<DeleteRangeResponse> deleteRange(DeleteRangeRequest r) {
        metrics.deletes.inc();
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setDeleteRange(r)).thenApply(res ->
                ((DeleteRangeResponse) res.response()).toBuilder().setHeader(server.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<TxnResponse> txn(TxnRequest r) {
        metrics.txns.inc();
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setTxn(r)).thenApply(res ->
                ((TxnResponse) res.response()).toBuilder().setHeader(server.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<CompactionResponse> compact(CompactionRequest r) {
        return server.proposeAsCaller(InternalRaftRequest.newBuilder().setCompaction(r)).thenCompose(res -> {
            CompactionResponse resp = ((CompactionResponse) res.response()).toBuilder()
                    .setHeader(server.header(res.revision())).build();
            if (!r.getPhysical()) {
                // as etcd: answered once applied; the compactor removes the history in the background
                return CompletableFuture.completedFuture(resp);
            }
            // physical: once the history is gone, made durable so that a crash does not resume it
            return server.stateMachines().store.whenCompacted(r.getRevision())
                    .thenCompose(x -> server.syncBackendAsync())
                    .thenApply(x -> resp);
        });
    }

    @Override
    public int maxTxnOps() {
        return server.config().maxTxnOps();
    }
}
