package io.etcdj.server.transport;

import io.etcdj.peerpb.StreamRefusal;
import io.etcdj.raftpb.Message;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;

/**
 * The sending end of a Raft stream to one peer, on a connection of its own: messages are framed on
 * the caller's thread (the Raft loop's) and written to the connection's event loop, one flush per
 * batch. The peer writes back only to refuse the stream; that, a keep-alive due (the peer's read
 * timeout) and a broken connection are seen on the event loop, through {@link #inbound()}.
 */
final class RaftStream {
    private final Channel channel;
    private volatile RuntimeException error;

    /** A stream on {@code channel}, whose pipeline ends with {@link #inbound()}'s handler. */
    RaftStream(Channel channel) {
        this.channel = channel;
    }

    /** The handler to end the connection's pipeline with (after the frame decoder and an idle-state handler). */
    static Inbound inbound() {
        return new Inbound();
    }

    /** Binds this stream to its connection's {@link Inbound} handler. */
    RaftStream bind(Inbound in) {
        in.stream = this;
        if (in.early != null) {
            failed(in.early);
        }
        if (!channel.isActive()) {
            failed(new StatusRuntimeException(Status.UNAVAILABLE.withDescription("connection closed")));
        }
        return this;
    }

    /** Frames {@code m} and queues it on the connection; returns the bytes it takes. Sent at the next {@link #flush()}. */
    int write(Message m) {
        ByteBuf frame = RaftStreamFrames.frame(channel.alloc(), m);
        int size = frame.readableBytes();
        channel.write(frame, channel.voidPromise());
        return size;
    }

    void flush() {
        channel.flush();
    }

    /** Whether the connection takes more data now (false: its buffer is above the high-water mark). */
    boolean isWritable() {
        return channel.isWritable();
    }

    /** Why the stream cannot carry more messages (refused, closed, broken), or null while it can. */
    RuntimeException error() {
        return error;
    }

    void close() {
        channel.close();
    }

    private void failed(RuntimeException e) {
        if (error == null) {
            error = e;
        }
    }

    /** The stream's view of its connection's events. */
    static final class Inbound extends ChannelInboundHandlerAdapter {
        /** Set once the dialer has the stream; what fails before is kept in {@link #early}. */
        private volatile RaftStream stream;
        private volatile RuntimeException early;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            ByteBuf frame = (ByteBuf) msg;
            try {
                String reason = StreamRefusal.parseFrom(frame.nioBuffer()).getReason();
                fail(new StatusRuntimeException(Status.FAILED_PRECONDITION.withDescription(reason)));
            } finally {
                frame.release();
            }
            ctx.close();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof IdleStateEvent) {
                ctx.writeAndFlush(RaftStreamFrames.keepAlive(ctx.alloc()), ctx.voidPromise());
                return;
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(new StatusRuntimeException(Status.UNAVAILABLE.withDescription("connection closed by peer")));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(new StatusRuntimeException(Status.UNAVAILABLE.withDescription(String.valueOf(cause.getMessage())).withCause(cause)));
            ctx.close();
        }

        private void fail(RuntimeException e) {
            RaftStream s = stream;
            if (s != null) {
                s.failed(e);
            } else if (early == null) {
                early = e;
            }
        }
    }
}
