package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.LogSink;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ServerCallStreamObserver;
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
        registry.addService(new ReadySender());
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
        return KVGrpc.newStub(channel(window));
    }

    private ManagedChannel channel(int window) {
        ManagedChannel c = NettyChannelBuilder.forAddress("127.0.0.1", ((InetSocketAddress) listener.localAddress()).getPort())
                .usePlaintext().flowControlWindow(window).maxInboundMessageSize(8 << 20).build();
        clients.add(c);
        return c;
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

    /**
     * HPACK's dynamic table is the server's and the client's: trailers that waited behind DATA the
     * client's window held back, and were dropped when the client reset the stream, must not have
     * changed the server's half (the next block would name entries the client never saw).
     */
    @Test
    void trailersDroppedWithTheirResetStreamLeaveTheHeaderTableAsTheClientHasIt() throws Exception {
        ManagedChannel c = channel(16 * 1024);
        ClientCall<DeleteRangeRequest, DeleteRangeResponse> first = c.newCall(KVGrpc.getDeleteRangeMethod(), CallOptions.DEFAULT);
        CompletableFuture<Void> headers = new CompletableFuture<>();
        first.start(new ClientCall.Listener<>() {
            @Override
            public void onHeaders(Metadata h) {
                headers.complete(null);
            }
        }, new Metadata());
        first.sendMessage(DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("size:" + (1 << 20))).build());
        first.halfClose(); // and no request(): the client reads nothing, its window stays shut
        headers.get(10, TimeUnit.SECONDS);
        first.cancel("the client gives up", null);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(c)
                .deleteRange(DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("size:10")).build()));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode(), String.valueOf(e.getStatus()));
        assertEquals(SizedValues.FAILED, e.getStatus().getDescription());
    }

    /**
     * A stream that sends while its call is ready (as etcd's watch streams do), on a client window
     * far smaller than what it sends: the call hears that bytes left while the connection writes,
     * and what it sends then must join the queue behind them.
     */
    @Test
    void aStreamThatSendsWhileReadyArrivesWholeAndInOrder() throws Exception {
        int count = 100;
        List<WatchResponse> got = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        StreamObserver<WatchRequest> requests = WatchGrpc.newStub(channel(64 * 1024)).watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse r) {
                got.add(r);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(null);
            }
        });
        requests.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("count:" + count))).build());
        done.get(30, TimeUnit.SECONDS);
        assertEquals(count, got.size());
        for (int i = 0; i < count; i++) {
            assertEquals(i, got.get(i).getWatchId(), "message " + i + " in its place");
            assertArrayEquals(expected(ReadySender.SIZE), got.get(i).getEvents(0).getKv().getValue().toByteArray());
        }
    }

    /** Answers "size:N" with the first N bytes of {@link #VALUES}, from a thread of its own for every other call. */
    /** Sends "count:N" messages of {@link #SIZE} bytes, numbered, while the call is ready, then completes. */
    private static final class ReadySender extends WatchGrpc.WatchImplBase {
        static final int SIZE = 40_000;

        @Override
        public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> reply) {
            ServerCallStreamObserver<WatchResponse> call = (ServerCallStreamObserver<WatchResponse>) reply;
            int[] next = {0};
            int[] total = {-1};
            Runnable send = () -> {
                while (total[0] >= 0 && next[0] < total[0] && call.isReady()) {
                    int i = next[0]++;
                    reply.onNext(WatchResponse.newBuilder().setWatchId(i).addEvents(Event.newBuilder()
                            .setKv(KeyValue.newBuilder().setValue(ByteString.copyFrom(VALUES, 0, SIZE)))).build());
                }
                if (total[0] >= 0 && next[0] == total[0]) {
                    next[0]++;
                    reply.onCompleted();
                }
            };
            call.setOnReadyHandler(send);
            return new StreamObserver<>() {
                @Override
                public void onNext(WatchRequest r) {
                    total[0] = Integer.parseInt(r.getCreateRequest().getKey().toStringUtf8().substring("count:".length()));
                    send.run();
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                }
            };
        }
    }

    private static final class SizedValues extends KVGrpc.KVImplBase {
        static final String FAILED = "failed after its answer";
        private int calls;

        /** Answers "size:N" as a range does, then fails the call (NOT_FOUND), on the connection's loop. */
        @Override
        public void deleteRange(DeleteRangeRequest request, StreamObserver<DeleteRangeResponse> reply) {
            int size = Integer.parseInt(request.getKey().toStringUtf8().substring("size:".length()));
            reply.onNext(DeleteRangeResponse.newBuilder().addPrevKvs(KeyValue.newBuilder().setKey(request.getKey())
                    .setValue(ByteString.copyFrom(VALUES, 0, size))).build());
            reply.onError(Status.NOT_FOUND.withDescription(FAILED).asRuntimeException());
        }

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
