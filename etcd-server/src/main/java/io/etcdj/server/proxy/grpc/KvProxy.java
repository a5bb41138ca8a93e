package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.CompactionResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;

/**
 * The KV service of the proxy: serializable ranges are answered from the cache when possible,
 * every range answer is cached (a linearizable one is as good as a serializable one), and writes
 * through the proxy drop the cached ranges they touch (etcd's grpcproxy kvProxy). Keys pass
 * through the namespace both ways.
 */
final class KvProxy extends KVGrpc.KVImplBase {
    private final KVGrpc.KVStub upstream;
    private final Namespace ns;
    private final RangeCache cache = new RangeCache();
    private final ProxyMetrics metrics;

    KvProxy(Channel channel, Namespace ns, ProxyMetrics metrics) {
        this.upstream = KVGrpc.newStub(channel);
        this.ns = ns;
        this.metrics = metrics;
    }

    @Override
    public void range(RangeRequest r, StreamObserver<RangeResponse> out) {
        RangeRequest asSerializable = r.toBuilder().setSerializable(true).build();
        if (r.getSerializable()) {
            RangeCache.Lookup hit = cache.get(asSerializable);
            switch (hit.outcome()) {
                case HIT -> {
                    metrics.cacheHit();
                    out.onNext(hit.response());
                    out.onCompleted();
                    return;
                }
                case COMPACTED -> {
                    metrics.cacheHit();
                    out.onError(Status.OUT_OF_RANGE.withDescription("etcdserver: mvcc: required revision has been compacted")
                            .asRuntimeException());
                    return;
                }
                default -> metrics.cacheMiss();
            }
        }
        upstream.range(ns.in(r), new Relay<>(out, ns::out, resp -> {
            cache.add(asSerializable, ns.out(resp));
            metrics.cacheKeys(cache.size());
        }));
    }

    @Override
    public void put(PutRequest r, StreamObserver<PutResponse> out) {
        upstream.put(ns.in(r), new Relay<>(out, ns::out, resp -> invalidate(r.getKey(), ByteString.EMPTY)));
    }

    @Override
    public void deleteRange(DeleteRangeRequest r, StreamObserver<DeleteRangeResponse> out) {
        upstream.deleteRange(ns.in(r), new Relay<>(out, ns::out, resp -> invalidate(r.getKey(), r.getRangeEnd())));
    }

    @Override
    public void txn(TxnRequest r, StreamObserver<TxnResponse> out) {
        upstream.txn(ns.in(r), new Relay<>(out, ns::out, resp -> {
            TxnResponse plain = ns.out(resp);
            afterTxn(resp.getSucceeded() ? r.getSuccessList() : r.getFailureList(), plain.getResponsesList());
        }));
    }

    @Override
    public void compact(CompactionRequest r, StreamObserver<CompactionResponse> out) {
        upstream.compact(r, new Relay<>(out, resp -> resp, resp -> {
            cache.compact(r.getRevision());
            metrics.cacheKeys(cache.size());
        }));
    }

    /** Writes in a transaction drop their ranges; its reads are cached like any range. */
    private void afterTxn(List<RequestOp> ops, List<ResponseOp> responses) {
        for (int i = 0; i < ops.size() && i < responses.size(); i++) {
            RequestOp op = ops.get(i);
            switch (op.getRequestCase()) {
                case REQUEST_PUT -> invalidate(op.getRequestPut().getKey(), ByteString.EMPTY);
                case REQUEST_DELETE_RANGE -> invalidate(op.getRequestDeleteRange().getKey(),
                        op.getRequestDeleteRange().getRangeEnd());
                case REQUEST_RANGE -> cache.add(op.getRequestRange().toBuilder().setSerializable(true).build(),
                        responses.get(i).getResponseRange());
                case REQUEST_TXN -> {
                    TxnRequest nested = op.getRequestTxn();
                    TxnResponse nestedResp = responses.get(i).getResponseTxn();
                    afterTxn(nestedResp.getSucceeded() ? nested.getSuccessList() : nested.getFailureList(),
                            nestedResp.getResponsesList());
                }
                default -> {
                }
            }
        }
        metrics.cacheKeys(cache.size());
    }

    private void invalidate(ByteString key, ByteString end) {
        cache.invalidate(key, end);
        metrics.cacheKeys(cache.size());
    }
}
