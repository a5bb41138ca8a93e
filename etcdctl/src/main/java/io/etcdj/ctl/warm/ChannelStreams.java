package io.etcdj.ctl.warm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Streams over a socket channel that a reader and a writer can use at the same time.
 * {@link java.nio.channels.Channels#newInputStream} cannot be used: its streams share the channel's
 * blocking lock, so a command writing output would wait for the client's next frame.
 */
final class ChannelStreams {

    private ChannelStreams() {
    }

    static InputStream in(SocketChannel ch) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                return ch.read(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    /**
     * The call's output to its client. A thread interrupted while it uses a {@link SocketChannel}
     * closes the channel ({@link java.nio.channels.ClosedByInterruptException}), and commands
     * interrupt their own threads (watch stops its stdin reader and printer, a restored interrupt
     * flag outlives a wait): a write from such a thread cut the client off before the exit code. So
     * one thread of the call's own does every write; a writer waits for it without being
     * interruptible and keeps its interrupt for later.
     */
    static final class Output extends OutputStream {
        private final SocketChannel ch;
        private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "warm-call-writer");
            t.setDaemon(true);
            return t;
        });

        private Output(SocketChannel ch) {
            this.ch = ch;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Future<?> written;
            try {
                written = writer.submit(() -> {
                    ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    return null;
                });
            } catch (RejectedExecutionException e) {
                throw new IOException("the call has ended", e);
            }
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        written.get();
                        return;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Ends the writer thread once the writes handed to it are done; the channel stays open. */
        @Override
        public void close() {
            writer.shutdown();
        }
    }

    static Output out(SocketChannel ch) {
        return new Output(ch);
    }
}
