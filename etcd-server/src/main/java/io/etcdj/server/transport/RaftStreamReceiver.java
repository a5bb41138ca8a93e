package io.etcdj.server.transport;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.peerpb.StreamHello;
import io.etcdj.peerpb.StreamRefusal;
import io.etcdj.raftpb.Message;
import io.etcdj.server.metrics.PeerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The receiving end of a Raft stream, after the frame decoder: checks the hello (cluster, sender,
 * addressee), then hands the messages of each read to the member on this event loop, together. A refused stream gets one
 * {@link StreamRefusal} frame and is closed.
 */
final class RaftStreamReceiver extends ChannelInboundHandlerAdapter {
    private final PeerHandler handler;
    private final SenderCheck senders;
    private final PeerMetrics metrics;
    /** Told the sender of each accepted stream: that member is up. */
    private final LongConsumer heard;
    private long from;
    private CounterDataPoint received;
    private boolean refused;
    /** Messages of the current read, handed over at its end. */
    private final List<Message> batch = new ArrayList<>();

    RaftStreamReceiver(PeerHandler handler, SenderCheck senders, PeerMetrics metrics, LongConsumer heard) {
        this.handler = handler;
        this.senders = senders;
        this.metrics = metrics;
        this.heard = heard;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws InvalidProtocolBufferException {
        ByteBuf frame = (ByteBuf) msg;
        try {
            int size = frame.readableBytes();
            if (size == 0 || refused) {
                return; // a keep-alive, or what was already on its way when the stream was refused
            }
            if (received == null) {
                StreamHello hello = StreamHello.parseFrom(frame.nioBuffer());
                String refusal = senders.refusal(hello.getClusterId(), hello.getFrom());
                if (refusal == null) {
                    refusal = senders.notFor(hello.getTo(), hello.getFrom());
                }
                if (refusal != null) {
                    refuse(ctx, refusal);
                    return;
                }
                from = hello.getFrom();
                received = metrics.receivedFrom(from);
                heard.accept(from);
                return;
            }
            String removed = senders.removed(from);
            if (removed != null) {
                refuse(ctx, removed);
                return;
            }
            batch.add(Message.parseFrom(frame.nioBuffer()));
            received.inc(size);
        } finally {
            frame.release();
        }
    }

    /** The end of one read from the connection: its messages go to the member together (one Raft turn, one fsync). */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!batch.isEmpty()) {
            List<Message> messages = List.copyOf(batch);
            batch.clear();
            handler.receive(messages);
        }
        ctx.fireChannelReadComplete();
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        refused = true;
        ctx.writeAndFlush(RaftStreamFrames.frame(ctx.alloc(), StreamRefusal.newBuilder().setReason(reason).build()))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (received != null && !refused) {
            metrics.receiveFailed(from);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // a broken connection, a read timeout or a frame that does not parse: the sender reconnects
        ctx.close();
    }
}
