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
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.serverpb.InternalRaftRequest;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/** etcd's KV service. Writes go through Raft; reads are linearizable unless serializable. */
public final class KvService extends KVGrpc.KVImplBase {
    private final EtcdServer server;

    public KvService(EtcdServer server) {
        this.server = server;
    }

    @Override
    public void range(RangeRequest r, StreamObserver<RangeResponse> out) {
        Replies.async(() -> {
            RequestChecks.range(r);
            CompletableFuture<Void> ready = r.getSerializable()
                    ? CompletableFuture.completedFuture(null) : server.linearizableBarrier();
            return ready.thenApply(x -> read(r));
        }, out);
    }

    /** Serves a range from the local store (after the barrier for linearizable reads). */
    public RangeResponse read(RangeRequest r) {
        try (ReadView v = server.store().openRead()) {
            return v.range(r).setHeader(server.header(v.revision())).build();
        }
    }

    @Override
    public void put(PutRequest r, StreamObserver<PutResponse> out) {
        Replies.async(() -> {
            RequestChecks.put(r);
            return server.propose(InternalRaftRequest.newBuilder().setPut(r), PutResponse.class);
        }, out);
    }

    @Override
    public void deleteRange(DeleteRangeRequest r, StreamObserver<DeleteRangeResponse> out) {
        Replies.async(() -> {
            RequestChecks.deleteRange(r);
            return server.propose(InternalRaftRequest.newBuilder().setDeleteRange(r), DeleteRangeResponse.class);
        }, out);
    }

    @Override
    public void txn(TxnRequest r, StreamObserver<TxnResponse> out) {
        Replies.async(() -> {
            RequestChecks.txn(r, server.config().maxTxnOps());
            return server.propose(InternalRaftRequest.newBuilder().setTxn(r), TxnResponse.class);
        }, out);
    }

    @Override
    public void compact(CompactionRequest r, StreamObserver<CompactionResponse> out) {
        Replies.async(() -> server.propose(InternalRaftRequest.newBuilder().setCompaction(r), CompactionResponse.class), out);
    }
}
