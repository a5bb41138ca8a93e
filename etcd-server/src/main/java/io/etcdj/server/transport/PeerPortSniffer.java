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
 * which then own the rest of the pipeline; anything else is gRPC (HTTP/2), and goes on to grpc-java
 * with its negotiation event, held here until then. A connection that says nothing for
 * {@code silenceMillis} is closed.
 */
final class PeerPortSniffer extends ChannelInboundHandlerAdapter {
    private final ChannelHandler grpc;
    private final Supplier<List<ChannelHandler>> raftStream;
    private final long silenceMillis;
    private ProtocolNegotiationEvent negotiation = InternalProtocolNegotiationEvent.getDefault();
    private ByteBuf seen;
    private ScheduledFuture<?> silence;

    /**
     * {@code grpc}: grpc-java's handler that takes the negotiation event; {@code raftStream}: the
     * handlers of a Raft stream, in pipeline order.
     */
    PeerPortSniffer(ChannelHandler grpc, Supplier<List<ChannelHandler>> raftStream, long silenceMillis) {
        this.grpc = grpc;
        this.raftStream = raftStream;
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
        int n = Math.min(seen.readableBytes(), preface.length);
        for (int i = 0; i < n; i++) {
            if (seen.getByte(seen.readerIndex() + i) != preface[i]) {
                toGrpc(ctx);
                return;
            }
        }
        if (n == preface.length) {
            toRaftStream(ctx);
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

    private void toRaftStream(ChannelHandlerContext ctx) {
        ByteBuf bytes = seen.skipBytes(RaftStreamFrames.PREFACE.length);
        seen = null;
        ChannelPipeline p = ctx.pipeline();
        // grpc-java's handlers behind this one wait for a negotiation that will not come (and would
        // close the connection at grpc-java's handshake timeout): the stream owns the rest of the pipeline
        List<String> behind = new ArrayList<>();
        boolean after = false;
        for (Map.Entry<String, ChannelHandler> e : p) {
            if (after) {
                behind.add(e.getKey());
            }
            after |= e.getValue() == this;
        }
        behind.forEach(p::remove);
        List<ChannelHandler> stream = raftStream.get();
        for (int i = stream.size() - 1; i >= 0; i--) {
            p.addAfter(ctx.name(), null, stream.get(i));
        }
        // from the removed context: the stream's first handler is the first to see them
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
