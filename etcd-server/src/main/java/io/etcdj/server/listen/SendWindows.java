package io.etcdj.server.listen;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * HTTP/2 flow control of what one server connection sends (RFC 9113, sections 5.2 and 6.9): the
 * client's window for the connection and for each stream, DATA cut to the client's largest frame,
 * and the DATA and trailers that wait for a window, in their order, written as windows open (the
 * waiting streams take turns). On the connection's event loop.
 */
final class SendWindows {
    /** RFC 9113's initial window and largest frame, until the client's SETTINGS say otherwise. */
    static final int DEFAULT_WINDOW = 65_535;
    static final int DEFAULT_MAX_FRAME = 16_384;
    private static final long MAX_WINDOW = Integer.MAX_VALUE;

    private final Http2Output out;
    /** Called when a stream's trailers are written. */
    private final Consumer<GrpcStream> ended;
    private final ArrayDeque<GrpcStream> blocked = new ArrayDeque<>();
    private long connectionWindow = DEFAULT_WINDOW;
    private int initialStreamWindow = DEFAULT_WINDOW;
    private int maxFrame = DEFAULT_MAX_FRAME;

    SendWindows(Http2Output out, Consumer<GrpcStream> ended) {
        this.out = out;
        this.ended = ended;
    }

    /** A new stream starts with the client's initial window. */
    void opened(GrpcStream s) {
        s.sendWindow = initialStreamWindow;
    }

    /** A message's bytes (released once written) for {@code s}, after what waits before them. */
    void data(GrpcStream s, ByteBuf message) {
        send(s, message);
    }

    /** The stream's last header block, after its DATA. */
    void trailers(GrpcStream s, byte[] block) {
        send(s, block);
    }

    /** Headers before any DATA (an answer's first): they wait only behind what already waits. */
    void headers(GrpcStream s, byte[] block) {
        if (s.waiting.isEmpty()) {
            out.headers(s.id, block, false, maxFrame);
        } else {
            s.waiting.add(new OpenHeaders(block));
        }
    }

    private void send(GrpcStream s, Object item) {
        if (s.gone) {
            drop(item, s);
            return;
        }
        s.waiting.add(item);
        if (!s.blocked && !drain(s)) {
            s.blocked = true;
            blocked.add(s);
        }
    }

    /** Writes what the windows allow from the head of the stream's queue; true when nothing is left waiting. */
    private boolean drain(GrpcStream s) {
        for (Object head = s.waiting.peek(); head != null; head = s.waiting.peek()) {
            if (head instanceof ByteBuf data) {
                while (data.isReadable()) {
                    int n = (int) Math.min(Math.min(data.readableBytes(), maxFrame), Math.min(connectionWindow, s.sendWindow));
                    if (n <= 0) {
                        return false;
                    }
                    out.data(s.id, data, n, false);
                    connectionWindow -= n;
                    s.sendWindow -= n;
                    s.call.sent(n);
                }
                s.waiting.poll();
                data.release();
            } else if (head instanceof OpenHeaders h) {
                s.waiting.poll();
                out.headers(s.id, h.block(), false, maxFrame);
            } else {
                s.waiting.poll();
                out.headers(s.id, (byte[]) head, true, maxFrame);
                ended.accept(s);
            }
        }
        return true;
    }

    /** The streams that wait, each in turn, while the connection's window lasts. */
    private void drainBlocked() {
        for (int turns = blocked.size(); turns > 0 && connectionWindow > 0; turns--) {
            GrpcStream s = blocked.poll();
            if (s.gone || drain(s)) {
                s.blocked = false;
            } else {
                blocked.add(s);
            }
        }
    }

    /** A WINDOW_UPDATE for the connection ({@code s} null) or for a stream. */
    void windowUpdate(GrpcStream s, int increment) throws Http2Exception {
        if (s == null) {
            connectionWindow += increment;
            if (connectionWindow > MAX_WINDOW) {
                throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR, "Window size overflow for stream: 0");
            }
        } else {
            s.sendWindow += increment;
            if (s.sendWindow > MAX_WINDOW) {
                throw Http2Exception.streamError(s.id, Http2Error.FLOW_CONTROL_ERROR, "Window size overflow for stream: %d", s.id);
            }
        }
        drainBlocked();
    }

    /** The client's SETTINGS_INITIAL_WINDOW_SIZE: every open stream's window moves by the difference. */
    void initialWindow(int size, Iterable<GrpcStream> open) throws Http2Exception {
        int delta = size - initialStreamWindow;
        initialStreamWindow = size;
        for (GrpcStream s : open) {
            s.sendWindow += delta;
            if (s.sendWindow > MAX_WINDOW) {
                throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR, "Window size overflow for stream: %d", s.id);
            }
        }
        drainBlocked();
    }

    /** The client's SETTINGS_MAX_FRAME_SIZE. */
    void maxFrame(int bytes) {
        maxFrame = bytes;
    }

    int maxFrame() {
        return maxFrame;
    }

    /** The stream was reset or the connection lost: what waits is dropped; true if its trailers were among it. */
    boolean drop(GrpcStream s) {
        s.gone = true;
        boolean trailers = false;
        for (Object item = s.waiting.poll(); item != null; item = s.waiting.poll()) {
            trailers |= item instanceof byte[];
            drop(item, s);
        }
        return trailers;
    }

    private static void drop(Object item, GrpcStream s) {
        if (item instanceof ByteBuf data) {
            s.call.sent(data.readableBytes());
            data.release();
        }
    }

    /** An answer's first headers held behind DATA that waits (not the trailers: they end the stream). */
    private record OpenHeaders(byte[] block) {
    }
}
