package io.etcdj.benchmark;

import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A KV service on a loopback port that records what it receives; ranges fail on request. */
final class FakeKvServer implements AutoCloseable {
    final List<PutRequest> puts = new CopyOnWriteArrayList<>();
    final List<RangeRequest> ranges = new CopyOnWriteArrayList<>();
    final List<TxnRequest> txns = new CopyOnWriteArrayList<>();
    volatile boolean failRanges;
    private final Server server;

    FakeKvServer() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void put(PutRequest request, StreamObserver<PutResponse> reply) {
                        puts.add(request);
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
                .build()
                .start();
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
