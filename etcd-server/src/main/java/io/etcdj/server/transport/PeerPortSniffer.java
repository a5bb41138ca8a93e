package io.etcdj.server.transport;

import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.netty.InternalProtocolNegotiationEvent;
import io.grpc.netty.ProtocolNegotiationEvent;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The first handler of a peer-port connection after TLS: reads until the first bytes tell what the
 * peer speaks. The Raft stream's preface hands the connection to the stream's decoder and receiver,
 * which then own the rest of the pipeline, and so does an HTTP/1 request line to etcd's peer
 * endpoints ({@link PeerHttp}); anything else is gRPC (HTTP/2), and goes on to grpc-java
 * with its negotiation event, held here until then. A connection that says nothing for
 * {@code silenceMillis} is closed.
 */
final class PeerPortSniffer extends ChannelInboundHandlerAdapter {
    /** How many bytes tell an HTTP/1 request line ("GET ", "POST"...) from HTTP/2's preface ("PRI "). */
    private static final int HTTP_METHOD_BYTES = 4;
    private final ChannelHandler grpc;
    private final Supplier<List<ChannelHandler>> raftStream;
    private final Supplier<List<ChannelHandler>> http;
    private final long silenceMillis;
    private ProtocolNegotiationEvent negotiation = InternalProtocolNegotiationEvent.getDefault();
    private ByteBuf seen;
    private ScheduledFuture<?> silence;

    /**
     * {@code grpc}: grpc-java's handler that takes the negotiation event; {@code raftStream} and
     * {@code http}: the handlers of a Raft stream and of an HTTP/1 request, in pipeline order.
     */
    PeerPortSniffer(ChannelHandler grpc, Supplier<List<ChannelHandler>> raftStream, Supplier<List<ChannelHandler>> http,
                    long silenceMillis) {
        this.grpc = grpc;
        this.raftStream = raftStream;
        this.http = http;
        this.silenceMillis = silenceMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        silence = ctx.executor().schedule(() -> ctx.close(), silenceMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        silence.cancel(false);
        if (seen != null) {
            seen.release();
            seen = null;
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ProtocolNegotiationEvent pne) {
            negotiation = pne; // grpc-java's start signal: held until the connection turns out to be gRPC
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf in)) {
            super.channelRead(ctx, msg);
            return;
        }
        if (seen == null) {
            seen = in;
        } else {
            seen = ctx.alloc().compositeBuffer().addComponents(true, seen, in);
        }
        byte[] preface = RaftStreamFrames.PREFACE;
        if (seen.getByte(seen.readerIndex()) != preface[0]) {
            if (seen.readableBytes() >= HTTP_METHOD_BYTES) {
                byte[] first = new byte[HTTP_METHOD_BYTES];
                seen.getBytes(seen.readerIndex(), first);
                if (PeerHttp.isRequestStart(first)) {
                    takeOver(ctx, http.get());
                } else {
                    toGrpc(ctx);
                }
            }
            return;
        }
        int n = Math.min(seen.readableBytes(), preface.length);
        for (int i = 0; i < n; i++) {
            if (seen.getByte(seen.readerIndex() + i) != preface[i]) {
                toGrpc(ctx);
                return;
            }
        }
        if (n == preface.length) {
            seen.skipBytes(preface.length);
            takeOver(ctx, raftStream.get());
        }
    }

    private void toGrpc(ChannelHandlerContext ctx) {
        ByteBuf bytes = seen;
        seen = null;
        ctx.pipeline().replace(this, null, grpc);
        // from the replaced context: grpc-java's handler is the first to see them
        ctx.fireUserEventTriggered(withAddresses(ctx));
        ctx.fireChannelRead(bytes);
    }

    /** Hands the connection, and what it sent that is still unread, to {@code handlers} (a Raft stream's or HTTP/1's). */
    private void takeOver(ChannelHandlerContext ctx, List<ChannelHandler> handlers) {
        ByteBuf bytes = seen;
        seen = null;
        ChannelPipeline p = ctx.pipeline();
        // grpc-java's handlers behind this one wait for a negotiation that will not come (and would
        // close the connection at grpc-java's handshake timeout): the new handlers own the rest of the pipeline
        List<String> behind = new ArrayList<>();
        boolean after = false;
        for (Map.Entry<String, ChannelHandler> e : p) {
            if (after) {
                behind.add(e.getKey());
            }
            after |= e.getValue() == this;
        }
        behind.forEach(p::remove);
        for (int i = handlers.size() - 1; i >= 0; i--) {
            p.addAfter(ctx.name(), null, handlers.get(i));
        }
        // from the removed context: the first of the new handlers is the first to see them
        p.remove(this);
        if (bytes.isReadable()) {
            ctx.fireChannelRead(bytes);
        } else {
            bytes.release();
        }
    }

    /** grpc-java's plaintext negotiator names the connection's addresses; TLS (TlsHandshake) already did. */
    private ProtocolNegotiationEvent withAddresses(ChannelHandlerContext ctx) {
        Attributes attrs = InternalProtocolNegotiationEvent.getAttributes(negotiation);
        if (attrs.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR) != null) {
            return negotiation;
        }
        return InternalProtocolNegotiationEvent.withAttributes(negotiation, attrs.toBuilder()
                .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress())
                .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                .build());
    }
}
