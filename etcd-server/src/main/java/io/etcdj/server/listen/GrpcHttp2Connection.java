package io.etcdj.server.listen;

import io.etcdj.server.log.Log;
import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Grpc;
import io.grpc.HandlerRegistry;
import io.grpc.InternalMetadata;
import io.grpc.InternalStatus;
import io.grpc.Metadata;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.netty.InternalProtocolNegotiationEvent;
import io.grpc.netty.ProtocolNegotiationEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * gRPC's server side of one HTTP/2 connection, with grpc-java's public call API
 * ({@link HandlerRegistry}, {@link io.grpc.ServerCall}) on top: the services and interceptors run
 * as under grpc-java's server, without its transport, context and executor layers, and without
 * Netty's HTTP/2 connection machinery (docs/decisions.md, "The client port's gRPC on Netty's
 * HTTP/2 codec"): Netty's frame reader and HPACK decoder read the client's frames
 * ({@link ClientFrames}); streams, both directions' flow control ({@link SendWindows}) and the
 * frames written ({@link Http2Output}) are this package's. Every client URL's, unless the member
 * runs with {@code -Detcdj.clientTransport=grpc-java}.
 */
public final class GrpcHttp2Connection extends ChannelInboundHandlerAdapter {
    private static final AsciiString TIMEOUT = AsciiString.of("grpc-timeout");
    /** The receive window of a stream and of the connection: grpc-java's server's default, 1 MiB. */
    static final int WINDOW = 1 << 20;
    /** The largest header list a client may send: Netty's and grpc-java's default, 8 KiB. */
    static final int MAX_HEADER_LIST = 8192;

    private final HandlerRegistry registry;
    private final int maxMessageBytes;
    private final long maxConcurrentStreams;
    private final ServerKeepAlive keepAlive;
    private final Log log;
    final IntObjectHashMap<GrpcStream> streams = new IntObjectHashMap<>();
    final HeaderBlocks headerBlocks = new HeaderBlocks();
    private ChannelHandlerContext ctx;
    private Attributes attributes;
    /** The answers' frames, written on the loop in the order they were sent (from any thread). */
    private OrderedWrites writes;
    Http2Output out;
    SendWindows sendWindows;
    private ClientFrames frames;
    /** The highest stream the client opened; streams at or under it that are not open are over. */
    int lastStreamId;
    /** After a GOAWAY: streams the client opens are not served. */
    boolean goingAway;
    ReceiveWindows receiveWindows;
    private boolean started;

    private GrpcHttp2Connection(HandlerRegistry registry, Settings settings, Log log) {
        this.registry = registry;
        this.maxMessageBytes = settings.maxMessageBytes();
        this.maxConcurrentStreams = Math.min(Integer.MAX_VALUE, settings.maxConcurrentStreams());
        this.keepAlive = new ServerKeepAlive(settings.keepAlive(), new KeepAliveActions());
        this.log = log;
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
        return new GrpcHttp2Connection(registry, settings, log);
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
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.out = new Http2Output(ctx);
        this.sendWindows = new SendWindows(out, headerBlocks, this::trailersWritten);
        this.frames = new ClientFrames(this);
        this.writes = new OrderedWrites(ctx.executor(), out::flush);
        this.receiveWindows = new ReceiveWindows(WINDOW, out, writes::flushSoon);
        this.attributes = Attributes.newBuilder()
                .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress()).build();
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start();
        super.channelActive(ctx);
    }

    /**
     * The server's side of the connection preface, once: its SETTINGS and the connection's larger
     * window (a connection accepted by a listener is active when its handlers are added, and then
     * active once more).
     */
    private void start() {
        if (started) {
            return;
        }
        started = true;
        out.settings(Http2Output.SETTINGS_MAX_CONCURRENT_STREAMS, maxConcurrentStreams, Http2Output.SETTINGS_INITIAL_WINDOW_SIZE, WINDOW,
                Http2Output.SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST);
        out.windowUpdate(0, WINDOW - SendWindows.DEFAULT_WINDOW);
        out.flush();
        keepAlive.start(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        writes.reading(true);
        keepAlive.read();
        try {
            frames.read(ctx, (ByteBuf) msg);
        } catch (Http2Exception e) {
            connectionError(e);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writes.reading(false);
        out.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (GrpcStream s : streams.values().toArray(new GrpcStream[0])) {
            if (abandon(s)) {
                s.call.ended(false); // its trailers never left
            }
        }
        streams.clear();
        keepAlive.stop();
        out.release();
        frames.release();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            ctx.close(); // the peer went away: its calls are cancelled as the channel goes inactive
            return;
        }
        log.warn("gRPC connection failed", cause, "remote", String.valueOf(ctx.channel().remoteAddress()));
        connectionError(Http2Exception.connectionError(Http2Error.INTERNAL_ERROR, cause, "%s", cause.getMessage()));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            for (GrpcStream s : streams.values().toArray(new GrpcStream[0])) {
                s.call.readyChanged();
            }
        }
        super.channelWritabilityChanged(ctx);
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
        GrpcStream s = streams.get(streamId);
        if (s != null) { // else they went back when the stream ended
            s.held -= bytes;
            receiveWindows.giveBack(s, bytes);
        }
    }

    /** The stream is over for the server: what it held of the connection's window goes back. */
    private void forget(GrpcStream s) {
        streams.remove(s.id);
        s.deframer.release();
        int held = s.held;
        s.held = 0;
        s.gone = true;
        receiveWindows.giveBack(null, held);
    }

    /**
     * The stream ends before its call did (a reset either way, a refused message, a lost
     * connection): it is forgotten, what waited to be sent is dropped and the call cancelled. True
     * if its trailers were among what was dropped.
     */
    boolean abandon(GrpcStream s) {
        forget(s);
        s.call.cancelledByPeer(); // first: the dropped bytes must not make a cancelled call ready
        return sendWindows.drop(s);
    }

    /**
     * The member stops: each lean connection of {@code connections} is told with a GOAWAY
     * (NO_ERROR, "app_requested", as grpc-java's server at shutdown) before its socket closes.
     */
    public static void goingAway(Iterable<Channel> connections) {
        for (Channel ch : connections) {
            GrpcHttp2Connection c = ch.pipeline().get(GrpcHttp2Connection.class);
            if (c != null) {
                ch.eventLoop().execute(() -> {
                    c.sendGoAway(Http2Error.NO_ERROR, "app_requested");
                    c.out.flush();
                });
            }
        }
    }

    private void sendGoAway(Http2Error error, String debug) {
        goingAway = true;
        out.goAway(lastStreamId, error.code(), debug);
    }

    /** A connection error: GOAWAY with its code and text, then the connection closes. */
    private void connectionError(Http2Exception e) {
        if (!ctx.channel().isActive()) {
            return;
        }
        sendGoAway(e.error(), e.getMessage());
        out.flushAndClose();
    }

    /** A stream error: the stream is reset, its call cancelled. */
    void reset(int streamId, Http2Error error) {
        GrpcStream s = streams.get(streamId);
        if (s != null) {
            abandon(s);
        }
        out.rstStream(streamId, error.code());
        writes.flushSoon();
    }

    // The answer's headers and bytes are encoded on the thread that sends them (often the apply
    // thread, for a put or a linearizable read), as grpc-java's server does: only the HTTP/2
    // framing (and HPACK for headers other than the usual ones) runs on the connection's event
    // loop, which one connection shares among all of its clients' calls.

    void sendHeaders(int streamId, Metadata headers) {
        Http2Headers h = InternalMetadata.headerCount(headers) == 0 ? null : GrpcWire.answerHeaders(headers);
        writes.write(() -> {
            keepAlive.wrote();
            GrpcStream s = streams.get(streamId);
            if (s != null) {
                sendWindows.headers(s, h);
            }
        });
    }

    void sendMessage(Http2ServerCall<?, ?> call, int streamId, ByteBuf message) {
        call.queued(message.readableBytes());
        writes.write(() -> {
            keepAlive.wrote();
            GrpcStream s = streams.get(streamId);
            if (s == null) {
                call.sent(message.readableBytes());
                message.release();
                return;
            }
            sendWindows.data(s, message);
        });
    }

    void sendTrailers(Http2ServerCall<?, ?> call, int streamId, Status status, Metadata trailers, boolean trailersOnly) {
        Http2Headers h = null;
        if (trailersOnly || !status.isOk() || status.getDescription() != null || InternalMetadata.headerCount(trailers) != 0) {
            trailers.discardAll(InternalStatus.CODE_KEY);
            trailers.discardAll(InternalStatus.MESSAGE_KEY);
            trailers.put(InternalStatus.CODE_KEY, status);
            if (status.getDescription() != null) {
                trailers.put(InternalStatus.MESSAGE_KEY, status.getDescription());
            }
            h = trailersOnly ? GrpcWire.responseHeaders(trailers) : GrpcWire.toHeaders(new DefaultHttp2Headers(), trailers);
        }
        Http2Headers block = h;
        writes.write(() -> {
            GrpcStream s = streams.get(streamId);
            if (s == null) {
                call.ended(false);
                return;
            }
            sendWindows.trailers(s, block);
        });
    }

    private void trailersWritten(GrpcStream s) {
        forget(s);
        s.call.ended(true);
    }

    /** A new stream's call, from its request headers. */
    void open(int streamId, Http2Headers headers, boolean endOfStream) {
        CharSequence path = headers.path();
        String name = path != null && path.length() > 1 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : "";
        CharSequence authority = headers.authority();
        ServerMethodDefinition<?, ?> def = registry.lookupMethod(name, authority == null ? null : authority.toString());
        if (def == null) {
            refuse(streamId, Status.UNIMPLEMENTED.withDescription("Method not found: " + name));
            return;
        }
        CharSequence encoding = headers.get(GrpcWire.ENCODING);
        if (!GrpcWire.decompressible(encoding)) {
            refuse(streamId, Status.UNIMPLEMENTED.withDescription("Can't find decompressor for " + encoding));
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
            refuse(streamId, Status.INTERNAL.withDescription("malformed request headers: " + e.getMessage()));
            return;
        }
        GrpcStream s = start(streamId, def, md, authority == null ? null : authority.toString(), context, GrpcWire.gzip(encoding));
        if (endOfStream && !s.gone) {
            s.clientDone = true;
            s.call.halfClosed();
        }
    }

    /** Whether the client may open one more stream (SETTINGS_MAX_CONCURRENT_STREAMS). */
    boolean atStreamLimit() {
        return streams.size() >= maxConcurrentStreams;
    }

    private <Q, R> GrpcStream start(int streamId, ServerMethodDefinition<Q, R> def, Metadata md, String authority, Context context,
            boolean gzip) {
        Http2ServerCall<Q, R> call = new Http2ServerCall<>(this, streamId, def.getMethodDescriptor(), attributes, authority, context);
        GrpcStream s = new GrpcStream(streamId, call, new GrpcDeframer(maxMessageBytes, gzip), WINDOW);
        sendWindows.opened(s);
        streams.put(streamId, s);
        if (context instanceof Context.CancellableContext c) {
            c.addListener(cancelled -> {
                if (streams.get(streamId) == s) {
                    reset(streamId, Http2Error.CANCEL);
                }
            }, ctx.executor());
        }
        call.start(def.getServerCallHandler(), md);
        return s;
    }

    /** Ends a stream before or without its call: trailers only. */
    void refuse(int streamId, Status status) {
        Metadata trailers = new Metadata();
        trailers.put(InternalStatus.CODE_KEY, status);
        trailers.put(InternalStatus.MESSAGE_KEY, status.getDescription());
        out.headers(streamId, headerBlocks.encode(streamId, GrpcWire.responseHeaders(trailers)), true, sendWindows.maxFrame());
        writes.flushSoon();
    }

    /** A DATA frame's bytes for an open stream; a refusal of the deframer ends the call. */
    void dataRead(GrpcStream s, ByteBuf data, int flowControlled, boolean endOfStream) {
        Status refused = s.deframer.add(ctx.alloc(), data, s.call::messageArrived);
        if (refused != null) {
            abandon(s);
            refuse(s.id, refused);
            receiveWindows.giveBack(null, flowControlled);
            return;
        }
        // a whole message's bytes go back as the call takes it (or with the stream, when it closes)
        int kept = s.deframer.heldByLastAdd();
        s.held += kept;
        if (endOfStream) {
            s.clientDone = true;
            s.call.halfClosed();
        }
        receiveWindows.giveBack(s, flowControlled - kept);
    }

    void pingRead() {
        keepAlive.pingRead();
    }

    /** What keep-alive does to this connection; the closes are at the socket, not waiting for open calls. */
    private final class KeepAliveActions implements ServerKeepAlive.Connection {
        @Override
        public void ping(long payload) {
            out.ping(false, payload);
            out.flush();
        }

        @Override
        public void tooManyPings() {
            sendGoAway(Http2Error.ENHANCE_YOUR_CALM, "too_many_pings");
            out.flushAndClose();
        }

        @Override
        public void unanswered() {
            ctx.close();
        }
    }
}
