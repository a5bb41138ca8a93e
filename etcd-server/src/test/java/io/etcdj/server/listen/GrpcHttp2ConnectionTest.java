package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchCancelRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchProgressRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.LogSink;
import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
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
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A grpc-java client against services served by {@link GrpcHttp2Connection}: what it sees must be grpc-java's server's. */
class GrpcHttp2ConnectionTest {
    private static final int MAX_MESSAGE = 4096;
    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<byte[]> TRACE = Metadata.Key.of("trace-bin", Metadata.BINARY_BYTE_MARSHALLER);
    private static final Metadata.Key<String> ANSWERED_BY = Metadata.Key.of("answered-by", Metadata.ASCII_STRING_MARSHALLER);

    private static final GrpcHttp2Connection.Settings SETTINGS = new GrpcHttp2Connection.Settings(MAX_MESSAGE, 100,
            Duration.ofMinutes(1), Duration.ZERO, Duration.ZERO);

    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private final MutableHandlerRegistry registry = new MutableHandlerRegistry();
    private final List<Channel> listeners = new ArrayList<>();
    private EventLoopGroup loops;
    private Channel listener;
    private ManagedChannel client;
    private final AtomicReference<Metadata> seenHeaders = new AtomicReference<>();
    private final CountDownLatch txnCancelled = new CountDownLatch(1);
    private final CountDownLatch watchCancelled = new CountDownLatch(1);
    private final AtomicReference<Boolean> txnHadDeadline = new AtomicReference<>();

    private static final int FLOOD = 100;
    private static final WatchResponse BIG = WatchResponse.newBuilder().addEvents(Event.newBuilder().setKv(
            KeyValue.newBuilder().setValue(ByteString.copyFrom(new byte[64 * 1024])))).build();
    private final AtomicInteger flooded = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        registry.addService(ServerInterceptors.intercept(new Kv(), new AnsweringInterceptor()));
        registry.addService(new Watch());
        loops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        listener = listen(SETTINGS);
        client = NettyChannelBuilder.forAddress("127.0.0.1", port(listener)).usePlaintext().build();
    }

    private Channel listen(GrpcHttp2Connection.Settings settings) throws InterruptedException {
        Channel ch = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(GrpcHttp2Connection.create(registry, settings, LogSink.to(logLines::add).logger("test")));
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        listeners.add(ch);
        return ch;
    }

    private static int port(Channel listener) {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @AfterEach
    void stop() throws Exception {
        client.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        for (Channel l : listeners) {
            l.close().sync();
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aUnaryCallIsAnsweredWithItsMetadataBothWays() {
        Metadata sent = new Metadata();
        sent.put(TOKEN, "abc.def");
        sent.put(TRACE, new byte[] {0, 1, (byte) 0xff, 42});
        AtomicReference<Metadata> headers = new AtomicReference<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        RangeResponse r = KVGrpc.newBlockingStub(client)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(sent),
                        MetadataUtils.newCaptureMetadataInterceptor(headers, trailers))
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).build());
        assertEquals("k", r.getKvs(0).getKey().toStringUtf8());
        assertEquals("abc.def", seenHeaders.get().get(TOKEN));
        assertArrayEquals(new byte[] {0, 1, (byte) 0xff, 42}, seenHeaders.get().get(TRACE));
        assertEquals("kv", headers.get().get(ANSWERED_BY));
    }

    @Test
    void aFailedCallKeepsItsCodeAndMessage() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(client)
                .put(PutRequest.getDefaultInstance()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals("etcdserver: key is not provided (100% ✓)", e.getStatus().getDescription());
    }

    @Test
    void aMethodNoServiceHasIsUnimplemented() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> LeaseGrpc.newBlockingStub(client)
                .leaseGrant(LeaseGrantRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
        assertEquals("Method not found: etcdserverpb.Lease/LeaseGrant", e.getStatus().getDescription());
    }

    @Test
    void theClientsDeadlineReachesTheHandlerAndEndsTheCall() throws Exception {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(client)
                .withDeadlineAfter(300, TimeUnit.MILLISECONDS).txn(TxnRequest.getDefaultInstance()));
        assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
        assertTrue(txnCancelled.await(5, TimeUnit.SECONDS), "the handler was told the call ended");
        assertEquals(Boolean.TRUE, txnHadDeadline.get());
    }

    @Test
    void aMessageAboveTheLimitIsRefused() {
        PutRequest big = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                .setValue(ByteString.copyFrom(new byte[2 * MAX_MESSAGE])).build();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(client).put(big));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().startsWith("gRPC message exceeds maximum size 4096: "),
                e.getStatus().getDescription());
    }

    @Test
    void aStreamCarriesMessagesBothWaysAndItsCancelReachesTheService() throws Exception {
        List<WatchResponse> got = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        Context.CancellableContext call = Context.current().withCancellation();
        StreamObserver<WatchRequest> requests = call.call(() -> WatchGrpc.newStub(client).watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse r) {
                got.add(r);
                three.countDown();
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        }));
        for (int i = 1; i <= 3; i++) {
            requests.onNext(WatchRequest.newBuilder().setProgressRequest(
                    WatchProgressRequest.getDefaultInstance()).build());
        }
        assertTrue(three.await(5, TimeUnit.SECONDS), "three answers");
        assertEquals(List.of(1L, 2L, 3L), got.stream().map(r -> r.getHeader().getRevision()).toList());
        call.cancel(null);
        assertTrue(watchCancelled.await(5, TimeUnit.SECONDS), "the service saw the cancel");
    }

    @Test
    void answersSentFromTwoThreadsArriveInTheOrderTheyWereSent() throws Exception {
        BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> requests = WatchGrpc.newStub(client).watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse r) {
                got.add(r.getCreated() ? "created" : "event");
            }

            @Override
            public void onError(Throwable t) {
                got.add(t);
            }

            @Override
            public void onCompleted() {
            }
        });
        requests.onNext(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.getDefaultInstance()).build());
        assertEquals("created", got.poll(5, TimeUnit.SECONDS));
        assertEquals("event", got.poll(5, TimeUnit.SECONDS));
        requests.onCompleted();
    }

    @Test
    void aHandlerThatThrowsEndsItsCallOnlyAndIsLogged() {
        KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(client);
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> kv.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("boom")).build()));
        assertEquals(Status.Code.UNKNOWN, e.getStatus().getCode());
        assertEquals("Application error processing RPC", e.getStatus().getDescription());
        assertTrue(logLines.stream().anyMatch(l -> l.contains("gRPC handler failed") && l.contains("etcdserverpb.KV/Range")
                && l.contains("no such range")), String.join("\n", logLines));
        assertEquals("k", kv.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).build()).getKvs(0).getKey()
                .toStringUtf8(), "the connection still serves");
    }

    @Test
    void aClientPingingMoreOftenThanTheMinimumIsSentAwayWithTooManyPings() throws Exception {
        try (RawHttp2 raw = new RawHttp2(port(listener))) {
            for (int i = 0; i < 4; i++) {
                raw.ping(i);
            }
            RawHttp2.Frame away = raw.next(f -> f.type() == RawHttp2.GOAWAY);
            assertEquals(Http2Error.ENHANCE_YOUR_CALM.code(), away.goAwayError());
            assertEquals("too_many_pings", away.goAwayDebug());
            assertTrue(raw.closedByServer(), "the connection is closed after the GOAWAY");
        }
    }

    @Test
    void anIdleClientIsPingedAndDroppedWhenItDoesNotAnswer() throws Exception {
        Channel pinging = listen(new GrpcHttp2Connection.Settings(MAX_MESSAGE, 100, Duration.ofMinutes(1),
                Duration.ofMillis(200), Duration.ofMillis(300)));
        try (RawHttp2 raw = new RawHttp2(port(pinging))) {
            RawHttp2.Frame ping = raw.next(f -> f.type() == RawHttp2.PING);
            assertEquals(0, ping.flags() & 1, "a ping, not an answer to one");
            assertTrue(raw.closedByServer(), "unanswered, the connection is closed");
        }
    }

    @Test
    void aStreamWhoseClientDoesNotReadIsNotReadyUntilItDoes() throws Exception {
        ManagedChannel slow = NettyChannelBuilder.forAddress("127.0.0.1", port(listener)).usePlaintext()
                .flowControlWindow(65535).build();
        try {
            AtomicInteger received = new AtomicInteger();
            AtomicReference<ClientCallStreamObserver<WatchRequest>> call = new AtomicReference<>();
            ClientResponseObserver<WatchRequest, WatchResponse> reader = new ClientResponseObserver<>() {
                @Override
                public void beforeStart(ClientCallStreamObserver<WatchRequest> r) {
                    call.set(r);
                    r.disableAutoRequestWithInitial(0);
                }

                @Override
                public void onNext(WatchResponse r) {
                    received.incrementAndGet();
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                }
            };
            StreamObserver<WatchRequest> requests = WatchGrpc.newStub(slow).watch(reader);
            requests.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.getDefaultInstance()).build());
            int before;
            do { // until the service stops sending
                before = flooded.get();
                Thread.sleep(300);
            } while (flooded.get() != before || before == 0);
            assertTrue(before < FLOOD / 4, "the service stopped while the client read nothing: " + before + " of " + FLOOD + " sent");
            call.get().request(FLOOD);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received.get() < FLOOD && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertEquals(FLOOD, received.get(), "once the client reads, the call is ready again and the rest arrives");
        } finally {
            slow.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** Records the request's headers and adds one to the answer. */
    private final class AnsweringInterceptor implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            seenHeaders.set(headers);
            return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata responseHeaders) {
                    responseHeaders.put(ANSWERED_BY, "kv");
                    super.sendHeaders(responseHeaders);
                }
            }, headers);
        }
    }

    private final class Kv extends KVGrpc.KVImplBase {
        @Override
        public void range(RangeRequest request, StreamObserver<RangeResponse> reply) {
            if (request.getKey().toStringUtf8().equals("boom")) {
                throw new IllegalStateException("no such range");
            }
            reply.onNext(RangeResponse.newBuilder().addKvs(KeyValue.newBuilder().setKey(request.getKey()))
                    .build());
            reply.onCompleted();
        }

        @Override
        public void put(PutRequest request, StreamObserver<PutResponse> reply) {
            reply.onError(Status.INVALID_ARGUMENT.withDescription("etcdserver: key is not provided (100% ✓)").asRuntimeException());
        }

        @Override
        public void txn(TxnRequest request, StreamObserver<TxnResponse> reply) {
            txnHadDeadline.set(Context.current().getDeadline() != null);
            ((ServerCallStreamObserver<TxnResponse>) reply).setOnCancelHandler(txnCancelled::countDown);
        }
    }

    /**
     * The stream's first answer (and its headers) from a thread of the service's own while the
     * loop waits for it, the second from the loop: as a watch's created answer, and the event of a
     * put whose Raft turn the loop ran.
     */
    private static void answerFromAnotherThreadThenFromTheLoop(StreamObserver<WatchResponse> events) {
        Thread handler = new Thread(() -> events.onNext(WatchResponse.newBuilder().setCreated(true).build()));
        handler.start();
        try {
            handler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        events.onNext(WatchResponse.newBuilder().addEvents(Event.getDefaultInstance()).build());
    }

    private final class Watch extends WatchGrpc.WatchImplBase {
        @Override
        public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> events) {
            ServerCallStreamObserver<WatchResponse> out = (ServerCallStreamObserver<WatchResponse>) events;
            out.setOnCancelHandler(watchCancelled::countDown);
            AtomicBoolean flooding = new AtomicBoolean();
            Runnable pump = () -> {
                synchronized (out) { // as a watch's events: sent from a thread of the service's own, while the call is ready
                    while (flooding.get() && out.isReady() && flooded.get() < FLOOD) {
                        out.onNext(BIG);
                        flooded.incrementAndGet();
                    }
                }
            };
            out.setOnReadyHandler(() -> new Thread(pump).start());
            return new StreamObserver<>() {
                private long n;

                @Override
                public void onNext(WatchRequest request) {
                    if (request.hasCreateRequest()) {
                        flooding.set(true);
                        new Thread(pump).start();
                        return;
                    }
                    if (request.hasCancelRequest()) {
                        answerFromAnotherThreadThenFromTheLoop(events);
                        return;
                    }
                    events.onNext(WatchResponse.newBuilder().setHeader(
                            ResponseHeader.newBuilder().setRevision(++n)).build());
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                    events.onCompleted();
                }
            };
        }
    }
}
