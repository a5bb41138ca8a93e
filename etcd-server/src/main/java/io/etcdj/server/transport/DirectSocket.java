package io.etcdj.server.transport;

import io.etcdj.server.osutil.LibC;
import io.netty.buffer.ByteBuf;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * A plaintext Raft stream's socket as the Raft loop writes to it itself, beside the connection's
 * event loop. It must never be the event loop's descriptor number: the loop closes that when the
 * peer goes, and the next connection or file the process opens may get the number at once, so a
 * write to it would land there. Each implementation holds the socket open on its own until
 * {@link #close()}, which the stream calls under the same lock as its writes.
 */
interface DirectSocket {
    /** Writes what the socket takes now of {@code buf}'s readable bytes, without blocking; returns how many. */
    int write(ByteBuf buf) throws IOException;

    /** Lets the socket go (the connection ends once the event loop has let it go too). */
    void close();

    /**
     * A descriptor of its own for an epoll channel's socket ({@code fcntl(F_DUPFD_CLOEXEC)}), taken
     * when the channel is made, before anything can close it. Writes go straight to the kernel,
     * as Netty's own writes do; the open file stays non-blocking, as the channel set it.
     */
    static DirectSocket duplicateOf(EpollSocketChannel channel) throws IOException {
        int fd = LibC.duplicate(channel.fd().intValue());
        if (fd < 0) {
            throw new IOException("cannot duplicate the stream's socket: errno " + -fd);
        }
        return new Duplicate(new FileDescriptor(fd));
    }

    /** The JDK's channel under a Netty NIO channel: it refuses writes once closed and keeps its number while one is under way. */
    static DirectSocket of(SocketChannel jdk) {
        return new Jdk(jdk);
    }

    /** A duplicate descriptor; its callers serialise writes and the close. */
    final class Duplicate implements DirectSocket {
        private final FileDescriptor fd;
        private boolean closed;

        private Duplicate(FileDescriptor fd) {
            this.fd = fd;
        }

        @Override
        public int write(ByteBuf buf) throws IOException {
            if (closed) {
                throw new ClosedChannelException();
            }
            if (buf.hasMemoryAddress()) {
                return fd.writeAddress(buf.memoryAddress(), buf.readerIndex(), buf.writerIndex());
            }
            ByteBuffer nio = buf.internalNioBuffer(buf.readerIndex(), buf.readableBytes());
            return fd.write(nio, nio.position(), nio.limit());
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                try {
                    fd.close();
                } catch (IOException ignored) { // the number is released whatever close(2) reports
                }
            }
        }
    }

    /** The JDK's socket channel (where Netty's epoll transport is not loaded). */
    final class Jdk implements DirectSocket {
        private final SocketChannel socket;

        private Jdk(SocketChannel socket) {
            this.socket = socket;
        }

        @Override
        public int write(ByteBuf buf) throws IOException {
            return socket.write(buf.internalNioBuffer(buf.readerIndex(), buf.readableBytes()));
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) { // closing is all that is asked
            }
        }
    }
}
