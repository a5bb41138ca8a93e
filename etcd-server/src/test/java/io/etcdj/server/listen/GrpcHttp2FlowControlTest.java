package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.LogSink;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.util.MutableHandlerRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Answers larger than the client's windows, and more calls at once than a connection may carry, on a grpc-java client. */
class GrpcHttp2FlowControlTest {
    private static final GrpcHttp2Connection.Settings SETTINGS = new GrpcHttp2Connection.Settings(4096, 10,
            Duration.ofMinutes(1), Duration.ZERO, Duration.ZERO);
    /** The value the service answers for a key "size:N": N pseudo-random bytes, the same for every call. */
    private static final byte[] VALUES = new byte[5 << 20];

    static {
        new Random(7).nextBytes(VALUES);
    }

    private final MutableHandlerRegistry registry = new MutableHandlerRegistry();
    private EventLoopGroup loops;
    private Channel listener;
    private final List<ManagedChannel> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        registry.addService(new SizedValues());
        loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        listener = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(GrpcHttp2Connection.create(registry, SETTINGS, LogSink.to(l -> { }).logger("test")));
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @AfterEach
    void stop() throws Exception {
        for (ManagedChannel c : clients) {
            c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        listener.close().sync();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    /** {@code window}: the client's flow-control window for each stream (and its connection). */
    private KVGrpc.KVStub client(int window) {
        ManagedChannel c = NettyChannelBuilder.forAddress("127.0.0.1", ((InetSocketAddress) listener.localAddress()).getPort())
                .usePlaintext().flowControlWindow(window).maxInboundMessageSize(8 << 20).build();
        clients.add(c);
        return KVGrpc.newStub(c);
    }

    private static byte[] expected(int size) {
        byte[] b = new byte[size];
        System.arraycopy(VALUES, 0, b, 0, size);
        return b;
    }

    private static CompletableFuture<RangeResponse> range(KVGrpc.KVStub kv, int size) {
        CompletableFuture<RangeResponse> answer = new CompletableFuture<>();
        kv.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("size:" + size)).build(), new StreamObserver<>() {
            @Override
            public void onNext(RangeResponse r) {
                answer.complete(r);
            }

            @Override
            public void onError(Throwable t) {
                answer.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
        });
        return answer;
    }

    @Test
    void anAnswerManyTimesTheClientsWindowArrivesWhole() throws Exception {
        RangeResponse r = range(client(16 * 1024), 5 << 20).get(30, TimeUnit.SECONDS);
        assertArrayEquals(expected(5 << 20), r.getKvs(0).getValue().toByteArray());
    }

    @Test
    void largeAndSmallAnswersOnOneConnectionEachArriveWhole() throws Exception {
        KVGrpc.KVStub kv = client(64 * 1024);
        int[] sizes = {3 << 20, 10, 200_000, 1, 70_000, 1 << 20, 5, 16_384, 16_385, 65_535};
        List<CompletableFuture<RangeResponse>> answers = new ArrayList<>();
        for (int size : sizes) {
            answers.add(range(kv, size));
        }
        for (int i = 0; i < sizes.length; i++) {
            assertArrayEquals(expected(sizes[i]), answers.get(i).get(30, TimeUnit.SECONDS).getKvs(0).getValue().toByteArray(),
                    "answer of " + sizes[i] + " bytes");
        }
    }

    @Test
    void moreCallsAtOnceThanTheConnectionCarriesAreAllAnswered() throws Exception {
        KVGrpc.KVStub kv = client(1 << 20);
        List<CompletableFuture<RangeResponse>> answers = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            answers.add(range(kv, i));
        }
        for (int i = 0; i < answers.size(); i++) {
            assertEquals(i, answers.get(i).get(30, TimeUnit.SECONDS).getKvs(0).getValue().size());
        }
    }

    /** Answers "size:N" with the first N bytes of {@link #VALUES}, from a thread of its own for every other call. */
    private static final class SizedValues extends KVGrpc.KVImplBase {
        private int calls;

        @Override
        public void range(RangeRequest request, StreamObserver<RangeResponse> reply) {
            int size = Integer.parseInt(request.getKey().toStringUtf8().substring("size:".length()));
            Runnable answer = () -> {
                reply.onNext(RangeResponse.newBuilder().addKvs(KeyValue.newBuilder().setKey(request.getKey())
                        .setValue(ByteString.copyFrom(VALUES, 0, size))).build());
                reply.onCompleted();
            };
            if (calls++ % 2 == 0) {
                answer.run();
            } else {
                new Thread(answer).start();
            }
        }
    }
}
