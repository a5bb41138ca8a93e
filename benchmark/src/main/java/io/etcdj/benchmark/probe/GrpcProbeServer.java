package io.etcdj.benchmark.probe;

import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;

/** The probe's KV methods on grpc-java's Netty server, configured as a member's client port is. */
final class GrpcProbeServer {
    private GrpcProbeServer() {
    }

    static Server start(int port, EventLoopGroup boss, EventLoopGroup workers) throws IOException {
        ProbeAnswers answers = new ProbeAnswers();
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
                .channelType(EpollServerSocketChannel.class)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .directExecutor()
                .addService(new KVGrpc.KVImplBase() {
                    @Override
                    public void range(RangeRequest request, StreamObserver<RangeResponse> reply) {
                        reply.onNext(answers.range(request));
                        reply.onCompleted();
                    }

                    @Override
                    public void put(PutRequest request, StreamObserver<PutResponse> reply) {
                        try {
                            reply.onNext(answers.put(request));
                            reply.onCompleted();
                        } catch (IllegalArgumentException e) {
                            reply.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
                        }
                    }
                })
                .build()
                .start();
    }
}
