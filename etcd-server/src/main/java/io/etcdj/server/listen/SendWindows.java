package io.etcdj.server.listen;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * HTTP/2 flow control of what one server connection sends (RFC 9113, sections 5.2 and 6.9): the
 * client's window for the connection and for each stream, DATA cut to the client's largest frame,
 * and the DATA and trailers that wait for a window, in their order, written as windows open (the
 * waiting streams take turns). Header blocks are encoded as they are written, never before: HPACK's
 * dynamic table is the client's too, so a block that is dropped (its stream reset while it waited)
 * must not have changed it. A call hears that its bytes left once a stream's turn is over, so
 * nothing it sends from that callback reaches a queue that is being written. On the connection's
 * event loop.
 */
final class SendWindows {
    /** RFC 9113's initial window and largest frame, until the client's SETTINGS say otherwise. */
    static final int DEFAULT_WINDOW = 65_535;
    static final int DEFAULT_MAX_FRAME = 16_384;
    private static final long MAX_WINDOW = Integer.MAX_VALUE;

    private final Http2Output out;
    private final HeaderBlocks blocks;
    /** Called when a stream's trailers are written. */
    private final Consumer<GrpcStream> ended;
    private final ArrayDeque<GrpcStream> blocked = new ArrayDeque<>();
    private long connectionWindow = DEFAULT_WINDOW;
    private int initialStreamWindow = DEFAULT_WINDOW;
    private int maxFrame = DEFAULT_MAX_FRAME;

    SendWindows(Http2Output out, HeaderBlocks blocks, Consumer<GrpcStream> ended) {
        this.out = out;
        this.blocks = blocks;
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

    /** The stream's last headers, after its DATA; null: those of a call that succeeded without metadata. */
    void trailers(GrpcStream s, Http2Headers trailers) {
        send(s, new Trailers(trailers));
    }

    /**
     * Headers before any DATA (an answer's first; null: those without metadata): they wait only
     * behind what already waits.
     */
    void headers(GrpcStream s, Http2Headers headers) {
        if (s.waiting.isEmpty()) {
            writeHeaders(s, headers);
        } else {
            s.waiting.add(new OpenHeaders(headers));
        }
    }

    private void writeHeaders(GrpcStream s, Http2Headers headers) {
        out.headers(s.id, headers == null ? blocks.plainAnswer(s.id) : blocks.encode(s.id, headers), false, maxFrame);
    }

    private void send(GrpcStream s, Object item) {
        if (s.gone) {
            drop(item, s);
            return;
        }
        s.waiting.add(item);
        if (!s.blocked) {
            drainOrWait(s);
        }
    }

    /** Writes what the windows allow of the stream's queue; what is left waits for a window, on the list once. */
    private void drainOrWait(GrpcStream s) {
        if (!drain(s) && !s.blocked) {
            s.blocked = true;
            blocked.add(s);
        }
    }

    /**
     * Writes what the windows allow from the head of the stream's queue; true when nothing is left
     * waiting. The call hears of the bytes sent, and of its end, after the queue was left as it is.
     */
    private boolean drain(GrpcStream s) {
        long sent = 0;
        boolean done = true;
        boolean over = false;
        loop:
        for (Object head = s.waiting.peek(); head != null; head = s.waiting.peek()) {
            if (head instanceof ByteBuf data) {
                while (data.isReadable()) {
                    int n = (int) Math.min(Math.min(data.readableBytes(), maxFrame), Math.min(connectionWindow, s.sendWindow));
                    if (n <= 0) {
                        done = false;
                        break loop;
                    }
                    out.data(s.id, data, n, false);
                    connectionWindow -= n;
                    s.sendWindow -= n;
                    sent += n;
                }
                s.waiting.poll();
                data.release();
            } else if (head instanceof OpenHeaders h) {
                s.waiting.poll();
                writeHeaders(s, h.headers());
            } else {
                s.waiting.poll();
                Http2Headers t = ((Trailers) head).headers();
                out.headers(s.id, t == null ? blocks.okTrailers(s.id) : blocks.encode(s.id, t), true, maxFrame);
                over = true;
            }
        }
        if (sent > 0) {
            s.call.sent((int) sent);
        }
        if (over) {
            ended.accept(s);
        }
        return done;
    }

    /** The streams that wait, each in turn, while the connection's window lasts. */
    private void drainBlocked() {
        for (int turns = blocked.size(); turns > 0 && connectionWindow > 0; turns--) {
            GrpcStream s = blocked.poll();
            s.blocked = false;
            if (!s.gone) {
                drainOrWait(s);
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
            trailers |= item instanceof Trailers;
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

    /** An answer's first headers held behind DATA that waits (null: those without metadata). */
    private record OpenHeaders(Http2Headers headers) {
    }

    /** A stream's last headers (null: a success without metadata). */
    private record Trailers(Http2Headers headers) {
    }
}
