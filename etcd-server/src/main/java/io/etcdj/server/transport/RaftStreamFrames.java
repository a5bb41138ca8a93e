package io.etcdj.server.transport;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The framing of a Raft stream (peer.proto describes it): a preface no HTTP/2 client sends, then
 * frames of a 4-byte big-endian length and a protobuf message; an empty frame is a keep-alive.
 */
final class RaftStreamFrames {
    /** What a Raft stream starts with; an HTTP/2 connection starts with "PRI * HTTP/2.0". */
    static final byte[] PREFACE = "\0etcdj-raft/1\n".getBytes(StandardCharsets.US_ASCII);
    /** The largest frame either side accepts: as large as the gRPC calls' limit on the peer port. */
    static final int MAX_FRAME = 64 << 20;
    private static final int LENGTH = 4;

    private RaftStreamFrames() {
    }

    /** Appends the frame of {@code m} to {@code buf} (growing it); returns the frame's size. */
    static int append(ByteBuf buf, MessageLite m) {
        int size = m.getSerializedSize();
        buf.ensureWritable(LENGTH + size);
        buf.writeInt(size);
        int at = buf.writerIndex();
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(at, size));
            m.writeTo(out);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            buf.writerIndex(at - LENGTH);
            throw new UncheckedIOException(e);
        }
        buf.writerIndex(at + size);
        return LENGTH + size;
    }

    /** The frame of {@code m}, in a new buffer from {@code alloc}. */
    static ByteBuf frame(ByteBufAllocator alloc, MessageLite m) {
        ByteBuf buf = alloc.buffer(LENGTH + m.getSerializedSize());
        append(buf, m);
        return buf;
    }

    /** Appends an empty frame: a keep-alive, for a receiver that drops a connection silent for its read timeout. */
    static void appendKeepAlive(ByteBuf buf) {
        buf.writeInt(0);
    }

    /** Splits the bytes after the preface into frames (without their length). */
    static LengthFieldBasedFrameDecoder decoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, LENGTH, 0, LENGTH);
    }
}
