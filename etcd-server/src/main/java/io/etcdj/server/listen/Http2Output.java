package io.etcdj.server.listen;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP/2 frames one server connection writes (RFC 9113, section 6), gathered in one buffer
 * until the connection flushes: a unary answer's HEADERS, DATA and trailers leave as one write to
 * the socket, not three through the pipeline. A large DATA payload is not copied: the gathered
 * bytes are written before it and it follows as a slice. On the connection's event loop.
 */
final class Http2Output {
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int FRAME_HEADER = 9;
    /** SETTINGS identifiers a server sends. */
    static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;
    /** DATA payloads up to this size are copied into the gathered buffer; larger ones are written as they are. */
    private static final int COPY_LIMIT = 4096;
    private static final int FIRST_BUFFER = 1024;

    private final ChannelHandlerContext ctx;
    private ByteBuf gathered;
    /** Something was written to the channel since the last flush. */
    private boolean unflushed;

    Http2Output(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    private ByteBuf room(int bytes) {
        if (gathered == null) {
            gathered = ctx.alloc().buffer(Math.max(FIRST_BUFFER, bytes));
        } else {
            gathered.ensureWritable(bytes);
        }
        return gathered;
    }

    private ByteBuf frame(int length, int type, int flags, int stream) {
        ByteBuf out = room(FRAME_HEADER + length);
        out.writeMedium(length).writeByte(type).writeByte(flags).writeInt(stream);
        return out;
    }

    /** A SETTINGS frame of (identifier, value) pairs. */
    void settings(long... pairs) {
        ByteBuf out = frame(pairs.length / 2 * 6, SETTINGS, 0, 0);
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.writeShort((int) pairs[i]).writeInt((int) pairs[i + 1]);
        }
    }

    void settingsAck() {
        frame(0, SETTINGS, ACK, 0);
    }

    void ping(boolean ack, long payload) {
        frame(8, PING, ack ? ACK : 0, 0).writeLong(payload);
    }

    void windowUpdate(int stream, int increment) {
        frame(4, WINDOW_UPDATE, 0, stream).writeInt(increment);
    }

    void rstStream(int stream, long errorCode) {
        frame(4, RST_STREAM, 0, stream).writeInt((int) errorCode);
    }

    void goAway(int lastStream, long errorCode, String debug) {
        byte[] why = debug == null ? new byte[0] : debug.getBytes(StandardCharsets.UTF_8);
        frame(8 + why.length, GOAWAY, 0, 0).writeInt(lastStream).writeInt((int) errorCode).writeBytes(why);
    }

    /** A header block as a HEADERS frame and as many CONTINUATION frames as {@code maxFrame} needs. */
    void headers(int stream, byte[] block, boolean endStream, int maxFrame) {
        int first = Math.min(block.length, maxFrame);
        int flags = (endStream ? END_STREAM : 0) | (first == block.length ? END_HEADERS : 0);
        frame(first, HEADERS, flags, stream).writeBytes(block, 0, first);
        for (int at = first; at < block.length; at += maxFrame) {
            int n = Math.min(block.length - at, maxFrame);
            frame(n, CONTINUATION, at + n == block.length ? END_HEADERS : 0, stream).writeBytes(block, at, n);
        }
    }

    /** One DATA frame of {@code length} bytes of {@code payload} from its reader index, which moves past them. */
    void data(int stream, ByteBuf payload, int length, boolean endStream) {
        ByteBuf out = frame(length <= COPY_LIMIT ? length : 0, DATA, endStream ? END_STREAM : 0, stream);
        out.setMedium(out.writerIndex() - FRAME_HEADER, length);
        if (length <= COPY_LIMIT) {
            out.writeBytes(payload, length);
            return;
        }
        ctx.write(gathered, ctx.voidPromise());
        gathered = null;
        ctx.write(payload.readRetainedSlice(length), ctx.voidPromise());
        unflushed = true;
    }

    /** Writes what was gathered and flushes the channel, if anything was written since the last flush. */
    void flush() {
        if (gathered != null) {
            ctx.write(gathered, ctx.voidPromise());
            gathered = null;
            unflushed = true;
        }
        if (unflushed) {
            unflushed = false;
            ctx.flush();
        }
    }

    /** Writes what was gathered, then closes the connection once it is out. */
    void flushAndClose() {
        ByteBuf last = gathered == null ? Unpooled.EMPTY_BUFFER : gathered;
        gathered = null;
        unflushed = false;
        ctx.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
    }

    /** The connection is gone: what was gathered goes back to the allocator. */
    void release() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }
}
