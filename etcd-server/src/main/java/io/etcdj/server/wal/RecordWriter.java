package io.etcdj.server.wal;

import com.google.protobuf.MessageLite;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.walpb.SnapshotMarker;
import java.nio.ByteBuffer;

/**
 * Encodes records into one buffer, so that a batch reaches the disk in a single write, marks the
 * last record of the batch so a reader can tell a complete write from part of one, and keeps the
 * running checksum that chains each record to the one before it, across segments too.
 */
final class RecordWriter {

    /**
     * Encoded bytes after which a long batch is written out in parts (a follower catching up takes
     * hundreds of megabytes in one Raft turn: encoded in one buffer, its doublings ran a member out of
     * heap). Only the batch's last record carries the write-end mark, so a crash between two parts
     * leaves an incomplete write that reading discards, as it discards a torn single write.
     */
    static final int PART_BYTES = 1 << 20;
    private static final int INITIAL_BYTES = 64 * 1024;

    private int runningCrc;
    private int lastHeader = -1;
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BYTES);

    RecordWriter(int runningCrc) {
        this.runningCrc = runningCrc;
    }

    int runningCrc() {
        return runningCrc;
    }

    void entry(Entry e) {
        payload(RecordType.ENTRY, e.toByteArray());
    }

    void state(HardState hs) {
        payload(RecordType.STATE, hs.toByteArray());
    }

    void metadata(byte[] metadata) {
        payload(RecordType.METADATA, metadata);
    }

    void snapshot(WalSnapshot s) {
        MessageLite marker = SnapshotMarker.newBuilder()
                .setIndex(s.index()).setTerm(s.term()).setConfState(s.confState()).build();
        payload(RecordType.SNAPSHOT, marker.toByteArray());
    }

    /** The record that opens a segment: it stores the running checksum instead of computing one. */
    void crc() {
        ensureRoom(0);
        lastHeader = buffer.position();
        Frame.putHeader(buffer, 0, RecordType.CRC, runningCrc);
    }

    /**
     * Hands out the encoded records and starts a new batch. The returned buffer shares memory with
     * the next batch, so it must be written out before anything else is encoded.
     */
    ByteBuffer drain() {
        if (lastHeader >= 0) {
            Frame.markWriteEnd(buffer, lastHeader);
            lastHeader = -1;
        }
        return handOut();
    }

    /** Bytes encoded and not yet handed out. */
    int pending() {
        return buffer.position();
    }

    /**
     * Hands out the records encoded so far without ending the write: more records of the same batch
     * follow (at least one, which will carry the mark). Same sharing rule as {@link #drain()}.
     */
    ByteBuffer drainPart() {
        lastHeader = -1;
        return handOut();
    }

    private ByteBuffer handOut() {
        ByteBuffer out = ByteBuffer.wrap(buffer.array(), 0, buffer.position());
        if (buffer.capacity() > 2 * PART_BYTES) {
            // one record larger than a part grew it: do not keep that much for every later batch
            buffer = ByteBuffer.allocate(INITIAL_BYTES);
        } else {
            buffer.clear();
        }
        return out;
    }

    private void payload(RecordType type, byte[] payload) {
        ensureRoom(payload.length);
        runningCrc = Frame.chainedCrc(runningCrc, payload, 0, payload.length);
        lastHeader = buffer.position();
        Frame.putHeader(buffer, payload.length, type, runningCrc);
        buffer.put(payload);
        buffer.put(new byte[Frame.padding(payload.length)]);
    }

    private void ensureRoom(int payloadLength) {
        int needed = Frame.HEADER_BYTES + payloadLength + Frame.ALIGNMENT;
        if (buffer.remaining() < needed) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + needed));
            bigger.put(buffer.array(), 0, buffer.position());
            buffer = bigger;
        }
    }
}
