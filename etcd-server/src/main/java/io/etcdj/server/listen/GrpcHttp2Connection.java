package io.etcdj.server.listen;

import io.etcdj.server.log.Log;
import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Grpc;
import io.grpc.HandlerRegistry;
import io.grpc.InternalStatus;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.netty.InternalProtocolNegotiationEvent;
import io.grpc.netty.ProtocolNegotiationEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * gRPC's server side of one HTTP/2 connection on Netty's codec, with grpc-java's public call API
 * ({@link HandlerRegistry}, {@link ServerCall}) on top: the services and interceptors run as under
 * grpc-java's server, without its transport, context and executor layers (docs/decisions.md, "The
 * client port's gRPC on Netty's HTTP/2 codec"). Every client URL's, unless the member runs with
 * {@code -Detcdj.clientTransport=grpc-java}.
 */
public final class GrpcHttp2Connection extends Http2ServerHandler {
    private static final AsciiString TIMEOUT = AsciiString.of("grpc-timeout");
    /** The receive window of a stream and of the connection: grpc-java's server's default, 1 MiB. */
    static final int WINDOW = 1 << 20;

    private final HandlerRegistry registry;
    private final int maxMessageBytes;
    private final ServerKeepAlive keepAlive;
    private final Log log;
    private final IntObjectHashMap<Stream> streams = new IntObjectHashMap<>();
    private ChannelHandlerContext ctx;
    private Attributes attributes;
    /** The answers' frames, written on the loop in the order they were sent (from any thread). */
    private OrderedWrites writes;

    GrpcHttp2Connection(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings,
            HandlerRegistry registry, int maxMessageBytes, ServerKeepAlive.Settings keepAlive, Log log) {
        super(decoder, encoder, settings);
        this.log = log;
        this.registry = registry;
        this.maxMessageBytes = maxMessageBytes;
        this.keepAlive = new ServerKeepAlive(keepAlive, new KeepAliveActions());
    }

    /**
     * What every connection of a listener shares: the largest request message, the concurrent
     * calls per connection, and etcd's three {@code --grpc-keepalive-*} flags (an interval or
     * timeout of 0: the server does not ping).
     */
    public record Settings(int maxMessageBytes, long maxConcurrentStreams, Duration keepAliveMinTime, Duration keepAliveInterval,
            Duration keepAliveTimeout) {
        ServerKeepAlive.Settings keepAlive() {
            return new ServerKeepAlive.Settings(keepAliveMinTime.toNanos(), keepAliveInterval.toNanos(), keepAliveTimeout.toNanos());
        }
    }

    /** A handler for one new connection; {@code log} gets the failures of services' handlers. */
    public static GrpcHttp2Connection create(HandlerRegistry registry, Settings settings, Log log) {
        return new GrpcHttp2ConnectionBuilder(registry, settings, log).build();
    }

    /** With TLS, the handshake's event: the attributes it carries (the TLS session) are the calls'. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ProtocolNegotiationEvent negotiated) {
            attributes = attributes.toBuilder().setAll(InternalProtocolNegotiationEvent.getAttributes(negotiated)).build();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    void handlerFailed(String method, RuntimeException e) {
        log.error("gRPC handler failed", e, "method", method);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        this.writes = new OrderedWrites(ctx.executor(), this::flushNow);
        this.attributes = Attributes.newBuilder()
                .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress()).build();
        super.handlerAdded(ctx);
        Http2Stream whole = connection().connectionStream();
        Http2LocalFlowController inbound = connection().local().flowController();
        inbound.incrementWindowSize(whole, WINDOW - inbound.windowSize(whole));
        keepAlive.start(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        writes.reading(true);
        keepAlive.read();
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        writes.reading(false);
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (Stream s : streams.values().toArray(new Stream[0])) {
            s.deframer().release();
            s.call().cancelledByPeer();
        }
        streams.clear();
        keepAlive.stop();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof IOException) {
            ctx.close(); // the peer went away: its calls are cancelled as the channel goes inactive
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        super.channelWritabilityChanged(ctx);
        if (ctx.channel().isWritable()) {
            for (Stream s : streams.values().toArray(new Stream[0])) {
                s.call().readyChanged();
            }
        }
    }

    boolean inEventLoop() {
        return ctx.executor().inEventLoop();
    }

    void execute(Runnable task) {
        ctx.executor().execute(task);
    }

    /** The connection's buffers (its channel's allocator). */
    ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    boolean isWritable() {
        return ctx.channel().isWritable();
    }

    /** A call took a message (on the loop): its bytes go back to the client's window. */
    void returnBytes(int streamId, int bytes) {
        Http2Stream stream = connection().stream(streamId);
        if (stream == null || bytes == 0) {
            return;
        }
        try {
            if (connection().local().flowController().consumeBytes(stream, bytes)) {
                writes.flushSoon(); // a WINDOW_UPDATE was written
            }
        } catch (Http2Exception e) {
            onError(ctx, false, e);
        }
    }

    /**
     * The member stops: each lean connection of {@code connections} is told with a GOAWAY
     * (NO_ERROR, "app_requested", as grpc-java's server at shutdown) before its socket closes.
     */
    public static void goingAway(Iterable<Channel> connections) {
        for (Channel ch : connections) {
            GrpcHttp2Connection c = ch.pipeline().get(GrpcHttp2Connection.class);
            if (c != null) {
                ch.eventLoop().execute(() -> c.sendGoAway(Http2Error.NO_ERROR, "app_requested"));
            }
        }
    }

    /** A GOAWAY naming the last stream the client opened, flushed now; on the loop. */
    private ChannelFuture sendGoAway(Http2Error error, String debug) {
        ByteBuf why = Unpooled.copiedBuffer(debug, StandardCharsets.US_ASCII);
        ChannelFuture sent = goAway(ctx, connection().remote().lastStreamCreated(), error.code(), why, ctx.newPromise());
        flushNow();
        return sent;
    }

    /** Through this handler's flush: DATA frames wait in the codec's flow controller until it runs. */
    private void flushNow() {
        try {
            flush(ctx);
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    // The answer's headers and bytes are encoded on the thread that sends them (often the apply
    // thread, for a put or a linearizable read), as grpc-java's server does: only the HTTP/2
    // framing and HPACK run on the connection's event loop, which one connection shares among
    // all of its clients' calls.

    void sendHeaders(int streamId, Metadata headers) {
        Http2Headers h = GrpcWire.answerHeaders(headers);
        writes.write(() -> {
            keepAlive.wrote();
            encoder().writeHeaders(ctx, streamId, h, 0, false, ctx.newPromise());
        });
    }

    void sendMessage(Http2ServerCall<?, ?> call, int streamId, ByteBuf out) {
        int bytes = out.readableBytes();
        call.queued(bytes);
        writes.write(() -> {
            keepAlive.wrote();
            encoder().writeData(ctx, streamId, out, 0, false, ctx.newPromise()).addListener(f -> call.sent(bytes));
        });
    }

    void sendTrailers(Http2ServerCall<?, ?> call, int streamId, Status status, Metadata trailers, boolean trailersOnly) {
        trailers.discardAll(InternalStatus.CODE_KEY);
        trailers.discardAll(InternalStatus.MESSAGE_KEY);
        trailers.put(InternalStatus.CODE_KEY, status);
        if (status.getDescription() != null) {
            trailers.put(InternalStatus.MESSAGE_KEY, status.getDescription());
        }
        Http2Headers h = trailersOnly ? GrpcWire.responseHeaders(trailers) : GrpcWire.toHeaders(new DefaultHttp2Headers(), trailers);
        writes.write(() -> {
            streams.remove(streamId);
            encoder().writeHeaders(ctx, streamId, h, 0, true, ctx.newPromise())
                    .addListener(f -> call.ended(f.isSuccess()));
        });
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream) {
        Stream existing = streams.get(streamId);
        if (existing != null) {
            if (endOfStream) {
                existing.call().halfClosed(); // trailers from the client
            }
            return;
        }
        CharSequence path = headers.path();
        String name = path != null && path.length() > 1 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : "";
        CharSequence authority = headers.authority();
        ServerMethodDefinition<?, ?> def = registry.lookupMethod(name, authority == null ? null : authority.toString());
        if (def == null) {
            refuse(ctx, streamId, Status.UNIMPLEMENTED.withDescription("Method not found: " + name));
            return;
        }
        CharSequence encoding = headers.get(GrpcWire.ENCODING);
        if (!GrpcWire.decompressible(encoding)) {
            refuse(ctx, streamId, Status.UNIMPLEMENTED.withDescription("Can't find decompressor for " + encoding));
            return;
        }
        Metadata md;
        Context context = Context.ROOT;
        try {
            md = GrpcWire.toMetadata(headers);
            CharSequence timeout = headers.get(TIMEOUT);
            if (timeout != null) {
                context = Context.ROOT.withDeadline(Deadline.after(GrpcWire.timeoutNanos(timeout), TimeUnit.NANOSECONDS), ctx.executor());
            }
        } catch (IllegalArgumentException e) { // a -bin value that is not base64, a grpc-timeout that is not one
            refuse(ctx, streamId, Status.INTERNAL.withDescription("malformed request headers: " + e.getMessage()));
            return;
        }
        start(streamId, def, md, authority == null ? null : authority.toString(), context, GrpcWire.gzip(encoding));
        if (endOfStream) {
            Stream s = streams.get(streamId);
            if (s != null) {
                s.call().halfClosed();
            }
        }
    }

    private <Q, R> void start(int streamId, ServerMethodDefinition<Q, R> def, Metadata md, String authority, Context context,
            boolean gzip) {
        Http2ServerCall<Q, R> call = new Http2ServerCall<>(this, streamId, def.getMethodDescriptor(), attributes, authority,
                context);
        streams.put(streamId, new Stream(call, new GrpcDeframer(maxMessageBytes, gzip)));
        if (context instanceof Context.CancellableContext c) {
            c.addListener(cancelled -> {
                if (streams.remove(streamId) != null) {
                    call.cancelledByPeer();
                    encoder().writeRstStream(this.ctx, streamId, Http2Error.CANCEL.code(), this.ctx.newPromise());
                    flushNow();
                }
            }, this.ctx.executor());
        }
        call.start(def.getServerCallHandler(), md);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int processed = data.readableBytes() + padding;
        Stream s = streams.get(streamId);
        if (s == null) {
            return processed;
        }
        Status refused = s.deframer().add(ctx.alloc(), data, s.call::messageArrived);
        if (refused != null) {
            streams.remove(streamId);
            s.call().cancelledByPeer();
            refuse(ctx, streamId, refused);
        } else if (endOfStream) {
            s.call().halfClosed();
        }
        // a whole message's bytes go back as the call takes it (or with the stream, when it closes)
        return processed - s.deframer().heldByLastAdd();
    }

    /** Ends a stream before or without its call: trailers only. */
    private void refuse(ChannelHandlerContext ctx, int streamId, Status status) {
        Metadata trailers = new Metadata();
        trailers.put(InternalStatus.CODE_KEY, status);
        trailers.put(InternalStatus.MESSAGE_KEY, status.getDescription());
        encoder().writeHeaders(ctx, streamId, GrpcWire.responseHeaders(trailers), 0, true, ctx.newPromise());
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        Stream s = streams.remove(streamId);
        if (s != null) {
            s.deframer().release();
            s.call().cancelledByPeer();
        }
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
        keepAlive.pingRead();
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        Stream s = streams.get(streamId);
        if (s != null) {
            s.call().readyChanged();
        }
    }

    /** What keep-alive does to this connection; the closes are at the socket, not waiting for open calls. */
    private final class KeepAliveActions implements ServerKeepAlive.Connection {
        @Override
        public void ping(long payload) {
            encoder().writePing(ctx, false, payload, ctx.newPromise());
            flushNow();
        }

        @Override
        public void tooManyPings() {
            sendGoAway(Http2Error.ENHANCE_YOUR_CALM, "too_many_pings").addListener(f -> ctx.close());
        }

        @Override
        public void unanswered() {
            ctx.close();
        }
    }

    /** A call and its inbound messages. */
    private record Stream(Http2ServerCall<?, ?> call, GrpcDeframer deframer) {
    }
}
