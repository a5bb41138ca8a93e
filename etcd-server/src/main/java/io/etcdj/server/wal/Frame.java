package io.etcdj.server.wal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The on-disk framing of one record (layout in package-info): a 16-byte header, the payload, and
 * zero padding to the next multiple of 8. Shared by the writer and the scanner so the two cannot
 * drift apart.
 */
final class Frame {

    static final int HEADER_BYTES = 16;
    static final int ALIGNMENT = 8;
    /** Bytes of the header covered by its own check (everything before the check itself). */
    static final int CHECKED_HEADER_BYTES = 12;
    static final int FLAGS_OFFSET = 6;
    /** Flag bit: this record is the last one of a write, so the write counts only once it is read. */
    static final int FLAG_WRITE_END = 1;

    private Frame() {
    }

    static int padding(int payloadLength) {
        return (ALIGNMENT - payloadLength % ALIGNMENT) % ALIGNMENT;
    }

    /**
     * The chained checksum of a record: CRC32C over the previous record's checksum (4 bytes, little
     * endian) followed by the payload. Chaining makes a lost, repeated or reordered record visible.
     */
    static int chainedCrc(int previousCrc, byte[] payload, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(previousCrc).array());
        crc.update(payload, offset, length);
        return (int) crc.getValue();
    }

    /** The header check: CRC32C of the first 12 header bytes. It is never 0 for an all-zero header. */
    static int headerCheck(byte[] buf, int headerOffset) {
        CRC32C crc = new CRC32C();
        crc.update(buf, headerOffset, CHECKED_HEADER_BYTES);
        return (int) crc.getValue();
    }

    static void putHeader(ByteBuffer out, int payloadLength, RecordType type, int crc) {
        int start = out.position();
        out.order(ByteOrder.LITTLE_ENDIAN)
                .putInt(payloadLength)
                .put((byte) type.code)
                .put((byte) padding(payloadLength))
                .put((byte) 0)
                .put((byte) 0)
                .putInt(crc);
        out.putInt(headerCheck(out.array(), out.arrayOffset() + start));
    }

    /** Sets the write-end flag of the header at {@code headerOffset} and refreshes its check. */
    static void markWriteEnd(ByteBuffer buf, int headerOffset) {
        buf.put(headerOffset + FLAGS_OFFSET, (byte) FLAG_WRITE_END);
        buf.order(ByteOrder.LITTLE_ENDIAN)
                .putInt(headerOffset + CHECKED_HEADER_BYTES, headerCheck(buf.array(), buf.arrayOffset() + headerOffset));
    }
}
