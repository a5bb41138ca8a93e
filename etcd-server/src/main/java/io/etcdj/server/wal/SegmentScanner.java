package io.etcdj.server.wal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Walks the frames of one segment held in memory, checks each one, and stops at the first frame
 * that is not intact. It then classifies what it stopped at, because the two cases need opposite
 * handling: a torn final write is expected after a crash and is cut off, while damage with intact
 * records after it means acknowledged data was lost and the member must not start.
 */
final class SegmentScanner {

    /** Disk sector size assumed by the torn-write rule: a sector is written whole or not at all. */
    static final int SECTOR_BYTES = 512;
    /** Page size assumed by the torn-write rule: the page cache writes a page whole or not at all. */
    static final int PAGE_BYTES = 4096;

    /**
     * Receives every intact record; CRC records arrive with an empty payload, their checksum
     * already taken over by the scanner. {@code writeEnd} marks the last record of one write;
     * {@code crcAfter} is the running checksum after the record.
     */
    interface Visitor {
        void record(RecordType type, byte[] payload, long offset, boolean writeEnd, int crcAfter) throws WalException;
    }

    /**
     * Where a segment scan ended. {@code end} is the offset after the last intact record. If
     * bytes other than zeros lie beyond it, {@code dirtyEnd} is the offset after the last of them
     * and {@code problem} says what was wrong with the frame at {@code end}.
     */
    record Stop(long end, long dirtyEnd, String problem, boolean followedByIntactRecord,
            boolean hasLostBlock) {

        boolean clean() {
            return dirtyEnd <= end;
        }

        /** A torn write: nothing intact follows, or the damage has the shape of an interrupted write. */
        boolean looksTorn() {
            return !followedByIntactRecord || hasLostBlock;
        }
    }

    private final Path file;
    private final byte[] data;
    private int runningCrc;
    private boolean chainKnown;

    SegmentScanner(Path file, byte[] data, int runningCrc, boolean chainKnown) {
        this.file = file;
        this.data = data;
        this.runningCrc = runningCrc;
        this.chainKnown = chainKnown;
    }

    int runningCrc() {
        return runningCrc;
    }

    boolean chainKnown() {
        return chainKnown;
    }

    Stop scan(Visitor visitor) throws WalException {
        int off = 0;
        while (true) {
            String problem = checkFrame(off);
            if (problem != null) {
                return classify(off, problem);
            }
            int length = intAt(off);
            RecordType type = RecordType.ofCode(data[off + 4] & 0xff);
            int storedCrc = intAt(off + 8);
            if (type == RecordType.CRC && chainKnown && storedCrc != runningCrc) {
                throw new WalCorruptedException(new WalPosition(file, off),
                        "the checksum chain from the previous segment is broken");
            }
            runningCrc = storedCrc;
            chainKnown = true;
            byte[] payload = new byte[length];
            System.arraycopy(data, off + Frame.HEADER_BYTES, payload, 0, length);
            int end = off + Frame.HEADER_BYTES + length + Frame.padding(length);
            boolean writeEnd = (data[off + Frame.FLAGS_OFFSET] & Frame.FLAG_WRITE_END) != 0;
            visitor.record(type, payload, off, writeEnd, runningCrc);
            off = end;
        }
    }

    /** Null if the frame at {@code off} is intact and chains from the running checksum. */
    private String checkFrame(int off) {
        if (off + Frame.HEADER_BYTES <= data.length && isZero(off, Frame.HEADER_BYTES)) {
            return "no record header";
        }
        String shape = checkShape(off);
        if (shape != null) {
            return shape;
        }
        RecordType type = RecordType.ofCode(data[off + 4] & 0xff);
        if (type == RecordType.CRC) {
            return null;
        }
        if (!chainKnown) {
            return "record before the segment's CRC record";
        }
        int length = intAt(off);
        if (Frame.chainedCrc(runningCrc, data, off + Frame.HEADER_BYTES, length) != intAt(off + 8)) {
            return "checksum mismatch";
        }
        return null;
    }

    /** Checks what can be checked without the chain: header checksum, type, padding, extent. */
    private String checkShape(int off) {
        if (off + Frame.HEADER_BYTES > data.length) {
            return "record header cut short by the end of the file";
        }
        if (Frame.headerCheck(data, off) != intAt(off + Frame.CHECKED_HEADER_BYTES)) {
            return "record header checksum mismatch";
        }
        long length = Integer.toUnsignedLong(intAt(off));
        RecordType type = RecordType.ofCode(data[off + 4] & 0xff);
        if (type == null) {
            return "unknown record type " + (data[off + 4] & 0xff);
        }
        if (data[off + 5] != Frame.padding((int) (length % Frame.ALIGNMENT))
                || (data[off + Frame.FLAGS_OFFSET] & ~Frame.FLAG_WRITE_END) != 0 || data[off + 7] != 0) {
            return "malformed record header";
        }
        if (off + Frame.HEADER_BYTES + length + Frame.padding((int) (length % Frame.ALIGNMENT)) > data.length) {
            return "record of " + length + " bytes runs past the end of the file";
        }
        return null;
    }

    private Stop classify(int off, String problem) {
        int lastNonZero = data.length - 1;
        while (lastNonZero >= off && data[lastNonZero] == 0) {
            lastNonZero--;
        }
        if (lastNonZero < off) {
            return new Stop(off, off, null, false, false);
        }
        // Look for intact frames only beyond the damaged frame's own payload when its header is
        // sound, so bytes inside a payload are never mistaken for a record.
        int from = checkShape(off) == null
                ? off + Frame.HEADER_BYTES + intAt(off) + Frame.padding(intAt(off) % Frame.ALIGNMENT)
                : off + Frame.ALIGNMENT;
        int follower = -1;
        for (int p = from; p + Frame.HEADER_BYTES <= data.length; p += Frame.ALIGNMENT) {
            if (!isZero(p, Frame.HEADER_BYTES) && checkShape(p) == null) {
                follower = p;
                break;
            }
        }
        boolean lostBlock = follower >= 0 && (hasZeroSector(off, follower) || zeroToPageEnd(off, follower));
        return new Stop(off, lastNonZero + 1L, problem, follower >= 0, lostBlock);
    }

    private boolean hasZeroSector(int from, int to) {
        int first = (from + SECTOR_BYTES - 1) / SECTOR_BYTES * SECTOR_BYTES;
        for (int s = first; s + SECTOR_BYTES <= to; s += SECTOR_BYTES) {
            if (isZero(s, SECTOR_BYTES)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Zeros from {@code from} to the end of its page, and {@code follower} beyond it: the page as it
     * was synced (the preallocated tail reads as zeros) while a later page of the same unsynced
     * writes reached the disk. A write that began less than a sector before a page's end leaves no
     * whole zero sector to see.
     */
    private boolean zeroToPageEnd(int from, int follower) {
        int pageEnd = (from / PAGE_BYTES + 1) * PAGE_BYTES;
        return follower >= pageEnd && isZero(from, pageEnd - from);
    }

    private boolean isZero(int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private int intAt(int off) {
        return ByteBuffer.wrap(data, off, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
}
