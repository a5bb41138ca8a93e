package io.etcdj.benchmark;

import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * KV and Watch services on a loopback port that record what they receive; every put is sent to
 * every watcher. Ranges fail on request.
 */
final class FakeKvServer implements AutoCloseable {
    final List<PutRequest> puts = new CopyOnWriteArrayList<>();
    final List<RangeRequest> ranges = new CopyOnWriteArrayList<>();
    final List<TxnRequest> txns = new CopyOnWriteArrayList<>();
    volatile boolean failRanges;
    /** When set, watch create requests get no answer, as from a server that never confirms them. */
    volatile boolean dropWatchers;
    private final List<Map.Entry<Long, StreamObserver<WatchResponse>>> watchers = new CopyOnWriteArrayList<>();
    private final AtomicLong watchIds = new AtomicLong();
    private final Server server;

    FakeKvServer() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void put(PutRequest request, StreamObserver<PutResponse> reply) {
                        puts.add(request);
                        notifyWatchers(request);
                        reply.onNext(PutResponse.getDefaultInstance());
                        reply.onCompleted();
                    }

                    @Override
                    public void range(RangeRequest request, StreamObserver<RangeResponse> reply) {
                        ranges.add(request);
                        if (failRanges) {
                            reply.onError(Status.UNAVAILABLE.withDescription("no leader").asRuntimeException());
                            return;
                        }
                        reply.onNext(RangeResponse.getDefaultInstance());
                        reply.onCompleted();
                    }

                    @Override
                    public void txn(TxnRequest request, StreamObserver<TxnResponse> reply) {
                        txns.add(request);
                        reply.onNext(TxnResponse.newBuilder().setSucceeded(true).build());
                        reply.onCompleted();
                    }
                })
                .addService(new WatchGrpc.WatchImplBase() {
                    @Override
                    public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> events) {
                        return new StreamObserver<>() {
                            @Override
                            public void onNext(WatchRequest request) {
                                if (!request.hasCreateRequest() || dropWatchers) {
                                    return;
                                }
                                long id = watchIds.incrementAndGet();
                                synchronized (events) {
                                    events.onNext(WatchResponse.newBuilder().setWatchId(id).setCreated(true).build());
                                }
                                watchers.add(Map.entry(id, events));
                            }

                            @Override
                            public void onError(Throwable t) {
                                watchers.removeIf(w -> w.getValue() == events);
                            }

                            @Override
                            public void onCompleted() {
                                watchers.removeIf(w -> w.getValue() == events);
                                synchronized (events) {
                                    events.onCompleted();
                                }
                            }
                        };
                    }
                })
                .build()
                .start();
    }

    private void notifyWatchers(PutRequest put) {
        Event event = Event.newBuilder().setType(Event.EventType.PUT)
                .setKv(KeyValue.newBuilder().setKey(put.getKey()).setValue(put.getValue())).build();
        for (Map.Entry<Long, StreamObserver<WatchResponse>> w : watchers) {
            synchronized (w.getValue()) {
                w.getValue().onNext(WatchResponse.newBuilder().setWatchId(w.getKey()).addEvents(event).build());
            }
        }
    }

    String endpoint() {
        return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(10, TimeUnit.SECONDS);
    }
}
