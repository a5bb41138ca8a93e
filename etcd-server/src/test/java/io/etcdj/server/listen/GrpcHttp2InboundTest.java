package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.LogSink;
import io.grpc.Codec;
import io.grpc.CompressorRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
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
import io.netty.handler.codec.http2.Http2Error;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a client sends to {@link GrpcHttp2Connection}: compressed messages, a stream the service
 * does not read, and the server going away. Expected texts are grpc-java's server's.
 */
class GrpcHttp2InboundTest {
    private static final int MAX_MESSAGE = 16 * 1024;
    private static final GrpcHttp2Connection.Settings SETTINGS = new GrpcHttp2Connection.Settings(MAX_MESSAGE, 100,
            Duration.ofMinutes(1), Duration.ZERO, Duration.ZERO);
    /** A watch request of about 8 KiB: 128 of them fill a stream's 1 MiB window. */
    private static final WatchRequest EIGHT_KIB = WatchRequest.newBuilder().setCreateRequest(
            WatchCreateRequest.newBuilder().setKey(ByteString.copyFrom(new byte[8 * 1024]))).build();

    private final MutableHandlerRegistry registry = new MutableHandlerRegistry();
    private final List<Channel> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger taken = new AtomicInteger();
    private final AtomicReference<ServerCallStreamObserver<WatchResponse>> watchCall = new AtomicReference<>();
    private EventLoopGroup loops;
    private Channel listener;
    private ManagedChannel client;

    @BeforeEach
    void start() throws Exception {
        registry.addService(new Kv());
        registry.addService(new UnreadWatch());
        loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        listener = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(GrpcHttp2Connection.create(registry, SETTINGS, LogSink.to(l -> { }).logger("test")));
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        client = NettyChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext().build();
    }

    private int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @AfterEach
    void stop() throws Exception {
        client.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        listener.close().sync();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aGzippedRequestIsRead() {
        RangeResponse r = KVGrpc.newBlockingStub(client).withCompression("gzip")
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("zipped")).build());
        assertEquals("zipped", r.getKvs(0).getKey().toStringUtf8());
    }

    @Test
    void anEncodingWithoutADecompressorIsUnimplemented() throws Exception {
        CompressorRegistry snappy = CompressorRegistry.newEmptyInstance();
        snappy.register(new Codec() {
            @Override
            public String getMessageEncoding() {
                return "snappy";
            }

            @Override
            public OutputStream compress(OutputStream os) {
                return os;
            }

            @Override
            public InputStream decompress(InputStream is) {
                return is;
            }
        });
        ManagedChannel c = NettyChannelBuilder.forAddress("127.0.0.1", port()).usePlaintext().compressorRegistry(snappy).build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(c)
                    .withCompression("snappy").range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).build()));
            assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
            assertEquals("Can't find decompressor for snappy", e.getStatus().getDescription());
        } finally {
            c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRequestThatInflatesPastTheLimitIsRefused() {
        PutRequest zeros = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                .setValue(ByteString.copyFrom(new byte[4 * MAX_MESSAGE])).build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> KVGrpc.newBlockingStub(client).withCompression("gzip").put(zeros));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        assertEquals("Decompressed gRPC message exceeds maximum size 16384", e.getStatus().getDescription());
    }

    @Test
    void aStreamTheServiceDoesNotReadHoldsItsClientBack() throws Exception {
        AtomicReference<ClientCallStreamObserver<WatchRequest>> call = new AtomicReference<>();
        ClientResponseObserver<WatchRequest, WatchResponse> ignored = new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<WatchRequest> r) {
                call.set(r);
            }

            @Override
            public void onNext(WatchResponse r) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        };
        WatchGrpc.newStub(client).watch(ignored);
        ClientCallStreamObserver<WatchRequest> requests = call.get();
        int sent = 0;
        // a client that honours readiness stops once the server's window is spent (1 MiB, then
        // grpc-java's 32 KiB of its own); without back-pressure it would send all 1 000 (8 MiB)
        while (sent < 1000 && !staysUnready(requests, Duration.ofMillis(500))) {
            requests.onNext(EIGHT_KIB);
            sent++;
        }
        assertTrue(sent < 200, "the client was held back after " + sent + " messages of 8 KiB");
        assertEquals(1, taken.get(), "the service took only the one message it asked for");
        watchCall.get().request(Integer.MAX_VALUE);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!requests.isReady() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertTrue(requests.isReady(), "once the service reads, the client may send again");
        while (taken.get() < sent && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(sent, taken.get(), "every message sent reached the service");
    }

    /** The call is not ready, and stays so for {@code d}; false as soon as it is ready. */
    private static boolean staysUnready(ClientCallStreamObserver<?> call, Duration d) throws InterruptedException {
        long until = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < until) {
            if (call.isReady()) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Test
    void theServerSendsItsPrefaceOnceAndOpensTheConnectionsWindowToOneMebibyte() throws Exception {
        try (RawHttp2 raw = new RawHttp2(port())) {
            raw.ping(7);
            List<RawHttp2.Frame> before = new ArrayList<>();
            raw.next(f -> {
                before.add(f);
                return f.type() == RawHttp2.PING;
            });
            assertEquals(1, before.stream().filter(f -> f.type() == RawHttp2.SETTINGS && (f.flags() & 1) == 0).count());
            long increments = before.stream().filter(f -> f.type() == RawHttp2.WINDOW_UPDATE && f.stream() == 0)
                    .mapToLong(f -> ByteBuffer.wrap(f.payload()).getInt()).sum();
            assertEquals(GrpcHttp2Connection.WINDOW - 65_535, increments);
        }
    }

    @Test
    void aStoppingServerSaysGoAwayBeforeItCloses() throws Exception {
        try (RawHttp2 raw = new RawHttp2(port())) {
            raw.ping(1);
            raw.next(f -> f.type() == RawHttp2.PING);
            GrpcHttp2Connection.goingAway(connections);
            RawHttp2.Frame away = raw.next(f -> f.type() == RawHttp2.GOAWAY);
            assertEquals(Http2Error.NO_ERROR.code(), away.goAwayError());
            assertEquals("app_requested", away.goAwayDebug());
        }
    }

    private static final class Kv extends KVGrpc.KVImplBase {
        @Override
        public void range(RangeRequest request, StreamObserver<RangeResponse> reply) {
            reply.onNext(RangeResponse.newBuilder().addKvs(KeyValue.newBuilder().setKey(request.getKey())).build());
            reply.onCompleted();
        }

        @Override
        public void put(PutRequest request, StreamObserver<PutResponse> reply) {
            reply.onNext(PutResponse.getDefaultInstance());
            reply.onCompleted();
        }
    }

    /** Takes one message, then only what the test asks for. */
    private final class UnreadWatch extends WatchGrpc.WatchImplBase {
        @Override
        public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> events) {
            ServerCallStreamObserver<WatchResponse> out = (ServerCallStreamObserver<WatchResponse>) events;
            out.disableAutoRequest();
            out.request(1);
            watchCall.set(out);
            return new StreamObserver<>() {
                @Override
                public void onNext(WatchRequest request) {
                    taken.incrementAndGet();
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
}
