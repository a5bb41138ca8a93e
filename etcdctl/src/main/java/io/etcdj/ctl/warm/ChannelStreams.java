package io.etcdj.ctl.warm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

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

    static OutputStream out(SocketChannel ch) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        };
    }
}
