package io.etcdj.server.listen;

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
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * gRPC's server side of one HTTP/2 connection on Netty's codec, with grpc-java's public call API
 * ({@link HandlerRegistry}, {@link ServerCall}) on top: the services and interceptors run as under
 * grpc-java's server, without its transport, context and executor layers (docs/decisions.md, "Next:
 * the client port's gRPC on Netty's HTTP/2 codec"). Experimental: chosen with
 * {@code -Detcdj.clientTransport=http2} for plaintext TCP client URLs.
 */
public final class GrpcHttp2Connection extends Http2ConnectionHandler implements Http2FrameListener {
    private static final AsciiString CONTENT_TYPE = AsciiString.of("content-type");
    private static final AsciiString GRPC = AsciiString.of("application/grpc");
    private static final AsciiString TIMEOUT = AsciiString.of("grpc-timeout");
    private static final AsciiString OK = AsciiString.of("200");

    private final HandlerRegistry registry;
    private final int maxMessageBytes;
    private final IntObjectHashMap<Stream> streams = new IntObjectHashMap<>();
    private final Queue<Runnable> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private ChannelHandlerContext ctx;
    private Attributes attributes;
    private boolean reading;

    private GrpcHttp2Connection(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings,
            HandlerRegistry registry, int maxMessageBytes) {
        super(decoder, encoder, settings);
        this.registry = registry;
        this.maxMessageBytes = maxMessageBytes;
    }

    /** A handler for one new connection. */
    public static GrpcHttp2Connection create(HandlerRegistry registry, int maxMessageBytes, long maxConcurrentStreams) {
        return new Builder(registry, maxMessageBytes, maxConcurrentStreams).build();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        this.attributes = Attributes.newBuilder()
                .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress()).build();
        super.handlerAdded(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        reading = true;
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        reading = false;
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (Stream s : streams.values().toArray(new Stream[0])) {
            s.call.cancelledByPeer();
        }
        streams.clear();
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
                s.call.readyChanged();
            }
        }
    }

    boolean inEventLoop() {
        return ctx.executor().inEventLoop();
    }

    void execute(Runnable task) {
        ctx.executor().execute(task);
    }

    boolean isWritable(int streamId) {
        if (!ctx.channel().isWritable()) {
            return false;
        }
        if (!inEventLoop()) {
            return true;
        }
        Http2Stream stream = connection().stream(streamId);
        return stream != null && connection().remote().flowController().isWritable(stream);
    }

    /** Runs a write on the event loop: now when on it, else queued with the others for one flush. */
    private void write(Runnable op) {
        if (inEventLoop()) {
            op.run();
            if (!reading) {
                flushNow();
            }
            return;
        }
        outbound.add(op);
        if (drainScheduled.compareAndSet(false, true)) {
            ctx.executor().execute(this::drain);
        }
    }

    private void drain() {
        drainScheduled.set(false);
        Runnable op;
        while ((op = outbound.poll()) != null) {
            op.run();
        }
        flushNow();
    }

    /** Through this handler's flush: DATA frames wait in the codec's flow controller until it runs. */
    private void flushNow() {
        try {
            flush(ctx);
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    void sendHeaders(int streamId, Metadata headers) {
        write(() -> encoder().writeHeaders(ctx, streamId, responseHeaders(headers), 0, false, ctx.newPromise()));
    }

    void sendMessage(int streamId, InputStream message) {
        write(() -> {
            ByteBuf out;
            try {
                int size = message.available();
                out = ctx.alloc().buffer(5 + size);
                out.writeByte(0).writeInt(size);
                message.transferTo(new ByteBufOutputStream(out));
                out.setInt(1, out.readableBytes() - 5);
            } catch (IOException e) {
                throw new IllegalStateException("serializing an answer failed", e);
            }
            encoder().writeData(ctx, streamId, out, 0, false, ctx.newPromise());
        });
    }

    void sendTrailers(Http2ServerCall<?, ?> call, int streamId, Status status, Metadata trailers, boolean trailersOnly) {
        write(() -> {
            trailers.discardAll(InternalStatus.CODE_KEY);
            trailers.discardAll(InternalStatus.MESSAGE_KEY);
            trailers.put(InternalStatus.CODE_KEY, status);
            if (status.getDescription() != null) {
                trailers.put(InternalStatus.MESSAGE_KEY, status.getDescription());
            }
            Http2Headers h = trailersOnly ? responseHeaders(trailers) : GrpcWire.toHeaders(new DefaultHttp2Headers(), trailers);
            streams.remove(streamId);
            encoder().writeHeaders(ctx, streamId, h, 0, true, ctx.newPromise())
                    .addListener(f -> call.completed());
        });
    }

    private static Http2Headers responseHeaders(Metadata md) {
        return GrpcWire.toHeaders(new DefaultHttp2Headers().status(OK).set(CONTENT_TYPE, GRPC), md);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream) {
        Stream existing = streams.get(streamId);
        if (existing != null) {
            if (endOfStream) {
                existing.call.halfClosed(); // trailers from the client
            }
            return;
        }
        CharSequence path = headers.path();
        String name = path != null && path.length() > 1 && path.charAt(0) == '/' ? path.subSequence(1, path.length()).toString() : "";
        CharSequence authority = headers.authority();
        ServerMethodDefinition<?, ?> def = registry.lookupMethod(name, authority == null ? null : authority.toString());
        if (def == null) {
            Metadata none = new Metadata();
            none.put(InternalStatus.CODE_KEY, Status.UNIMPLEMENTED);
            none.put(InternalStatus.MESSAGE_KEY, "Method not found: " + name);
            encoder().writeHeaders(ctx, streamId, responseHeaders(none), 0, true, ctx.newPromise());
            return;
        }
        Metadata md = GrpcWire.toMetadata(headers);
        Context context = Context.ROOT;
        CharSequence timeout = headers.get(TIMEOUT);
        if (timeout != null) {
            context = Context.ROOT.withDeadline(Deadline.after(GrpcWire.timeoutNanos(timeout), TimeUnit.NANOSECONDS), ctx.executor());
        }
        start(streamId, def, md, authority == null ? null : authority.toString(), context);
        if (endOfStream) {
            Stream s = streams.get(streamId);
            if (s != null) {
                s.call.halfClosed();
            }
        }
    }

    private <Q, R> void start(int streamId, ServerMethodDefinition<Q, R> def, Metadata md, String authority, Context context) {
        Http2ServerCall<Q, R> call = new Http2ServerCall<>(this, streamId, def.getMethodDescriptor(), attributes, authority,
                context);
        streams.put(streamId, new Stream(call));
        if (context instanceof Context.CancellableContext c) {
            c.addListener(cancelled -> {
                if (streams.remove(streamId) != null) {
                    call.cancelledByPeer();
                    encoder().writeRstStream(this.ctx, streamId, Http2Error.CANCEL.code(), this.ctx.newPromise());
                    flushNow();
                }
            }, this.ctx.executor());
        }
        Context previous = context.attach();
        ServerCall.Listener<Q> listener;
        try {
            listener = def.getServerCallHandler().startCall(call, md);
        } finally {
            context.detach(previous);
        }
        call.start(listener);
        call.readyChanged();
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency, short weight,
            boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int processed = data.readableBytes() + padding;
        Stream s = streams.get(streamId);
        if (s == null) {
            return processed;
        }
        s.pending = s.pending == null ? ctx.alloc().buffer(data.readableBytes()) : s.pending;
        s.pending.writeBytes(data);
        while (s.pending.readableBytes() >= 5) {
            int at = s.pending.readerIndex();
            int size = s.pending.getInt(at + 1);
            if (s.pending.getByte(at) != 0 || size < 0 || size > maxMessageBytes) {
                String why = s.pending.getByte(at) != 0 ? "compressed messages are not accepted here"
                        : String.format(Locale.US, "gRPC message exceeds maximum size %d: %d", maxMessageBytes, size);
                s.release();
                streams.remove(streamId);
                s.call.cancelledByPeer();
                Metadata trailers = new Metadata();
                trailers.put(InternalStatus.CODE_KEY, Status.RESOURCE_EXHAUSTED);
                trailers.put(InternalStatus.MESSAGE_KEY, why);
                encoder().writeHeaders(ctx, streamId, responseHeaders(trailers), 0, true, ctx.newPromise());
                return processed;
            }
            if (s.pending.readableBytes() < 5 + size) {
                break;
            }
            s.pending.skipBytes(5);
            byte[] message = new byte[size];
            s.pending.readBytes(message);
            s.call.messageArrived(new GrpcWire.Message(message));
        }
        if (!s.pending.isReadable()) {
            s.release();
        }
        if (endOfStream) {
            s.call.halfClosed();
        }
        return processed;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        Stream s = streams.remove(streamId);
        if (s != null) {
            s.release();
            s.call.cancelledByPeer();
        }
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight, boolean exclusive) {
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers,
            int padding) {
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
        if (streamId != 0) {
            Stream s = streams.get(streamId);
            if (s != null) {
                s.call.readyChanged();
            }
        }
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
            ByteBuf payload) {
    }

    /** A call and the bytes of a message not yet whole. */
    private static final class Stream {
        final Http2ServerCall<?, ?> call;
        ByteBuf pending;

        Stream(Http2ServerCall<?, ?> call) {
            this.call = call;
        }

        void release() {
            if (pending != null) {
                pending.release();
                pending = null;
            }
        }
    }

    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<GrpcHttp2Connection, Builder> {
        private final HandlerRegistry registry;
        private final int maxMessageBytes;

        Builder(HandlerRegistry registry, int maxMessageBytes, long maxConcurrentStreams) {
            this.registry = registry;
            this.maxMessageBytes = maxMessageBytes;
            initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxConcurrentStreams));
        }

        @Override
        public GrpcHttp2Connection build() {
            return super.build();
        }

        @Override
        protected GrpcHttp2Connection build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
            GrpcHttp2Connection handler = new GrpcHttp2Connection(decoder, encoder, settings, registry, maxMessageBytes);
            frameListener(handler);
            return handler;
        }
    }
}
