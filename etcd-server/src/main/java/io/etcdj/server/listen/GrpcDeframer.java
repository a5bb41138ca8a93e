package io.etcdj.server.listen;

import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * gRPC's length-prefixed messages out of one stream's DATA frames, which may split a message or
 * carry several. A message above the limit, before or after its decompression, or compressed
 * without an encoding the call named, ends the call with grpc-java's server's status and text.
 *
 * <p>Flow control: the bytes of a whole message that a frame completes are held until the call
 * takes the message ({@link GrpcWire.Message#heldBytes}), so a stream whose service does not ask
 * for more closes the client's window, as on grpc-java's server; the bytes of a message still
 * arriving are returned at once, or a message larger than the window could never arrive.
 */
final class GrpcDeframer {
    private static final int PREFIX = 5;

    private final int maxMessageBytes;
    private final boolean gzip;
    private ByteBuf pending;
    /** Every byte of the stream added so far. */
    private long received;
    private int heldByLastAdd;

    /** {@code gzip}: the client named gzip as its {@code grpc-encoding}; otherwise messages are not compressed. */
    GrpcDeframer(int maxMessageBytes, boolean gzip) {
        this.maxMessageBytes = maxMessageBytes;
        this.gzip = gzip;
    }

    /** Adds a frame's bytes and hands on every whole message; a status when the call must end, else null. */
    Status add(ByteBufAllocator alloc, ByteBuf data, Consumer<GrpcWire.Message> messages) {
        long frameStart = received;
        received += data.readableBytes();
        heldByLastAdd = 0;
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
            long start = received - pending.readableBytes();
            int held = (int) (start + PREFIX + size - Math.max(start, frameStart));
            pending.skipBytes(PREFIX);
            byte[] message = new byte[size];
            pending.readBytes(message);
            if (flags != 0) {
                try {
                    message = gunzip(message);
                } catch (IOException e) {
                    release();
                    return Status.INTERNAL.withDescription("Can't decode compressed gRPC message: " + e.getMessage());
                }
                if (message == null) {
                    release();
                    return Status.RESOURCE_EXHAUSTED.withDescription(
                            String.format(Locale.US, "Decompressed gRPC message exceeds maximum size %d", maxMessageBytes));
                }
            }
            heldByLastAdd += held;
            messages.accept(new GrpcWire.Message(message, held));
        }
        if (!pending.isReadable()) {
            release();
        }
        return null;
    }

    /** What the last {@link #add} handed on held of its frame's bytes; the rest may be returned to the client's window now. */
    int heldByLastAdd() {
        return heldByLastAdd;
    }

    private Status refusal(byte flags, int size) {
        if ((flags & 0xfe) != 0) {
            return Status.INTERNAL.withDescription("gRPC frame header malformed: reserved bits not zero");
        }
        if (flags != 0 && !gzip) {
            return Status.INTERNAL.withDescription("Can't decode compressed gRPC message as compression not configured");
        }
        if (size < 0 || size > maxMessageBytes) {
            return Status.RESOURCE_EXHAUSTED.withDescription(
                    String.format(Locale.US, "gRPC message exceeds maximum size %d: %d", maxMessageBytes, Integer.toUnsignedLong(size)));
        }
        return null;
    }

    /** The message inflated, or null when it inflates past the limit (reading stops there). */
    private byte[] gunzip(byte[] compressed) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
            byte[] out = in.readNBytes(maxMessageBytes);
            return in.read() < 0 ? out : null;
        }
    }

    /** Drops a partial message (the call ended). */
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
