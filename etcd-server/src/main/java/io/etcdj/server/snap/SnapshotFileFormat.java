package io.etcdj.server.snap;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.Snapshot;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Content of a snapshot file: a 4-byte magic "ESNP", the CRC32C of the body (u32, little endian),
 * then the body, a serialized raftpb.Snapshot.
 */
final class SnapshotFileFormat {

    private static final int MAGIC = 0x504e5345; // "ESNP" read as a little-endian u32
    private static final int HEADER_BYTES = 8;

    private SnapshotFileFormat() {
    }

    static byte[] encode(Snapshot snapshot) {
        byte[] body = snapshot.toByteArray();
        return ByteBuffer.allocate(HEADER_BYTES + body.length).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(MAGIC).putInt(crc(body, 0, body.length)).put(body).array();
    }

    static Snapshot decode(byte[] content, String fileName) throws SnapshotCorruptedException {
        if (content.length < HEADER_BYTES) {
            throw new SnapshotCorruptedException("snap: " + fileName + " is too short to be a snapshot");
        }
        ByteBuffer in = ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC) {
            throw new SnapshotCorruptedException("snap: " + fileName + " is not a snapshot file");
        }
        if (in.getInt() != crc(content, HEADER_BYTES, content.length - HEADER_BYTES)) {
            throw new SnapshotCorruptedException("snap: crc mismatch in " + fileName);
        }
        try {
            return Snapshot.parseFrom(ByteBuffer.wrap(content, HEADER_BYTES, content.length - HEADER_BYTES));
        } catch (InvalidProtocolBufferException e) {
            throw new SnapshotCorruptedException("snap: cannot decode " + fileName + ": " + e.getMessage());
        }
    }

    private static int crc(byte[] b, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }
}
