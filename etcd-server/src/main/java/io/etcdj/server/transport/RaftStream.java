package io.etcdj.server.transport;

import com.google.protobuf.MessageLite;
import io.etcdj.peerpb.StreamRefusal;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;

/**
 * The sending end of a Raft stream to one peer, on a connection of its own. Messages are framed on
 * the caller's thread (the Raft loop's) into one buffer and sent at {@link #flush()}, once per
 * batch. On a plaintext TCP connection the caller writes them to the socket itself when nothing
 * waits in the connection's event loop and the socket takes them whole (the common case: no
 * wake-up of the loop, no hand-off); what the socket does not take goes to the loop, and while
 * anything waits there every later batch follows it, so bytes leave in order. TLS connections and
 * unix sockets always go through the loop. The peer writes back only to refuse the stream; that, a
 * keep-alive due (the peer's read timeout) and a broken connection are seen on the event loop,
 * through {@link #inbound()}.
 */
final class RaftStream {
    /** A batch buffer grown past this (a large append) is not kept for the next one. */
    private static final int KEEP_CAPACITY = 256 * 1024;

    private final Channel channel;
    /**
     * The socket, when the caller may write to it directly (plaintext TCP); null otherwise. Never
     * the event loop's descriptor number ({@link DirectSocket} says why); closed under the lock
     * once the channel closes.
     */
    private final DirectSocket socket;
    /** Guards the batch, the count of buffers in the loop, and every write to the connection and its close. */
    private final Object lock = new Object();
    private ByteBuf batch;
    /** Buffers handed to the event loop and not yet written out by it. */
    private int inLoop;
    /** Batches (or their rests) the event loop wrote: all of them on TLS, those the socket did not take whole on plaintext TCP. */
    private long handedToLoop;
    private volatile RuntimeException error;

    /**
     * A stream on {@code channel}, whose pipeline ends with {@link #inbound()}'s handler;
     * {@code socket}: the channel's socket for the caller to write to, or null; closed with the channel.
     */
    RaftStream(Channel channel, DirectSocket socket) {
        this.channel = channel;
        this.socket = socket;
        if (socket != null) {
            channel.closeFuture().addListener(f -> {
                synchronized (lock) {
                    socket.close();
                }
            });
        }
    }

    /** The handler to end the connection's pipeline with (after the frame decoder and an idle-state handler). */
    static Inbound inbound() {
        return new Inbound();
    }

    /** Binds this stream to its connection's {@link Inbound} handler, and sends the preface and {@code hello}. */
    RaftStream open(Inbound in, MessageLite hello) {
        in.stream = this;
        if (in.early != null) {
            failed(in.early);
        }
        if (!channel.isActive()) {
            failed(new StatusRuntimeException(Status.UNAVAILABLE.withDescription("connection closed")));
        }
        synchronized (lock) {
            batch().writeBytes(RaftStreamFrames.PREFACE);
            RaftStreamFrames.append(batch, hello);
        }
        flush();
        return this;
    }

    /** Frames {@code m} into the batch; returns the bytes it takes. Sent at the next {@link #flush()}. */
    int write(MessageLite m) {
        synchronized (lock) {
            return RaftStreamFrames.append(batch(), m);
        }
    }

    private ByteBuf batch() {
        if (batch == null) {
            batch = channel.alloc().directBuffer(4096);
        }
        return batch;
    }

    /** Sends the batch: straight to the socket when it can, else through the event loop. */
    void flush() {
        synchronized (lock) {
            if (batch == null || !batch.isReadable()) {
                return;
            }
            if (socket != null && inLoop == 0) {
                try {
                    batch.skipBytes(socket.write(batch));
                } catch (IOException e) { // closed (the peer went, or the member stops; said without a message) or broken
                    String why = e.getMessage() != null ? e.getMessage() : "connection closed";
                    failed(new StatusRuntimeException(Status.UNAVAILABLE.withDescription(why).withCause(e)));
                    channel.close();
                    batch.clear();
                    return;
                }
                if (!batch.isReadable()) {
                    if (batch.capacity() > KEEP_CAPACITY) {
                        batch.release();
                        batch = null;
                    } else {
                        batch.clear();
                    }
                    return;
                }
            }
            ByteBuf rest = batch;
            batch = null;
            inLoop++;
            handedToLoop++;
            channel.writeAndFlush(rest).addListener((ChannelFutureListener) f -> {
                synchronized (lock) {
                    inLoop--;
                }
                if (!f.isSuccess()) {
                    Throwable cause = f.cause();
                    failed(new StatusRuntimeException(Status.UNAVAILABLE.withDescription(String.valueOf(cause.getMessage()))
                            .withCause(cause)));
                }
            });
        }
    }

    /** Whether the caller writes to the socket itself (plaintext TCP) rather than through the event loop. */
    boolean writesDirectly() {
        return socket != null;
    }

    long handedToLoop() {
        synchronized (lock) {
            return handedToLoop;
        }
    }

    /** Whether the connection takes more data now (false: what waits in its event loop is above the high-water mark). */
    boolean isWritable() {
        return channel.isWritable();
    }

    /** Why the stream cannot carry more messages (refused, closed, broken), or null while it can. */
    RuntimeException error() {
        return error;
    }

    void close() {
        channel.close();
        synchronized (lock) {
            if (batch != null) {
                batch.release();
                batch = null;
            }
        }
    }

    private void keepAlive() {
        synchronized (lock) {
            if (!channel.isActive() || batch != null && batch.isReadable()) {
                return; // closed, or a batch waits for its flush: the peer hears from us anyway
            }
            RaftStreamFrames.appendKeepAlive(batch());
        }
        flush();
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
                RaftStream s = stream;
                if (s != null) {
                    s.keepAlive();
                }
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
