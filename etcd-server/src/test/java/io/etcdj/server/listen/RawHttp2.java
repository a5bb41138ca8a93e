package io.etcdj.server.listen;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/** An HTTP/2 client at the frame level, for what grpc-java's client will not do (ping too often, never answer a ping). */
final class RawHttp2 implements AutoCloseable {
    static final int SETTINGS = 4;
    static final int PING = 6;
    static final int GOAWAY = 7;
    static final int WINDOW_UPDATE = 8;
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    /** A frame as read: type, flags, stream and payload. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        long goAwayError() {
            return Integer.toUnsignedLong(ByteBuffer.wrap(payload, 4, 4).getInt());
        }

        String goAwayDebug() {
            return new String(payload, 8, payload.length - 8, StandardCharsets.US_ASCII);
        }
    }

    /** Connects and sends the preface and empty SETTINGS; every read waits at most 10 s. */
    RawHttp2(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        out.write(PREFACE);
        frame(SETTINGS, 0, new byte[0]);
    }

    void ping(long payload) throws IOException {
        frame(PING, 0, ByteBuffer.allocate(8).putLong(payload).array());
    }

    private void frame(int type, int flags, byte[] payload) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        b.put((byte) type).put((byte) flags).putInt(0).put(payload);
        out.write(b.array());
        out.flush();
    }

    /** A server that has sent GOAWAY may have closed before the acknowledgement reaches it: its failure is no answer. */
    private void acknowledge() {
        try {
            frame(SETTINGS, 1, new byte[0]);
        } catch (IOException e) {
            // the frames already read are still read
        }
    }

    /** The next frame that {@code wanted} accepts (others are skipped; a server SETTINGS is acknowledged). */
    Frame next(Predicate<Frame> wanted) throws IOException {
        while (true) {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            Frame f = new Frame(type, flags, stream, payload);
            if (type == SETTINGS && (flags & 1) == 0) {
                acknowledge();
            }
            if (wanted.test(f)) {
                return f;
            }
        }
    }

    /** True once the server closes the connection (within the read timeout), skipping frames until then. */
    boolean closedByServer() throws IOException {
        try {
            next(f -> false);
            return false;
        } catch (EOFException closed) {
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return reset.getMessage() != null && reset.getMessage().contains("reset");
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
