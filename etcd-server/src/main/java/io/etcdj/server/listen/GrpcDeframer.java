package io.etcdj.server.listen;

import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * gRPC's length-prefixed messages out of one stream's DATA frames, which may split a message or
 * carry several. A message above the limit or compressed (no encoding is negotiated here) ends
 * the call with grpc-java's server's status and text.
 */
final class GrpcDeframer {
    private static final int PREFIX = 5;

    private final int maxMessageBytes;
    private ByteBuf pending;

    GrpcDeframer(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Adds a frame's bytes and hands on every whole message; a status when the call must end, else null. */
    Status add(ByteBufAllocator alloc, ByteBuf data, Consumer<InputStream> messages) {
        pending = pending == null ? alloc.buffer(data.readableBytes()) : pending;
        pending.writeBytes(data);
        while (pending.readableBytes() >= PREFIX) {
            int at = pending.readerIndex();
            byte flags = pending.getByte(at);
            int size = pending.getInt(at + 1);
            Status refused = refusal(flags, size);
            if (refused != null) {
                release();
                return refused;
            }
            if (pending.readableBytes() < PREFIX + size) {
                break;
            }
            pending.skipBytes(PREFIX);
            byte[] message = new byte[size];
            pending.readBytes(message);
            messages.accept(new GrpcWire.Message(message));
        }
        if (!pending.isReadable()) {
            release();
        }
        return null;
    }

    private Status refusal(byte flags, int size) {
        if ((flags & 0xfe) != 0) {
            return Status.INTERNAL.withDescription("gRPC frame header malformed: reserved bits not zero");
        }
        if (flags != 0) {
            return Status.INTERNAL.withDescription("Can't decode compressed gRPC message as compression not configured");
        }
        if (size < 0 || size > maxMessageBytes) {
            return Status.RESOURCE_EXHAUSTED.withDescription(
                    String.format(Locale.US, "gRPC message exceeds maximum size %d: %d", maxMessageBytes, Integer.toUnsignedLong(size)));
        }
        return null;
    }

    /** Drops a partial message (the call ended). */
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
