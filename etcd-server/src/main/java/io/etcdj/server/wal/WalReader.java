package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the segments needed to recover from a snapshot, in order, and decides what a bad record
 * means: a torn final write in the last segment is reported so the caller can cut it off; any
 * other damage is a {@link WalCorruptedException}. Reading never changes a file.
 */
final class WalReader {

    /** Everything {@link Wal} needs to continue appending where the log ends. */
    record Recovered(LogState state, List<SegmentName> segments, int firstRead, int runningCrc,
            long tailEnd, Optional<WalPosition> tornTail, long tornDirtyEnd) {

        SegmentName lastSegment() {
            return segments.get(segments.size() - 1);
        }
    }

    private WalReader() {
    }

    static List<SegmentName> listSegments(DiskIo io, Path dir) throws IOException {
        return SegmentName.sorted(io.list(dir));
    }

    /**
     * @param requireStartMarker if true, {@code start} must be marked in the log (as for
     *     {@link Wal#open}); if false, markers are only collected
     */
    static Recovered read(DiskIo io, Path dir, WalSnapshot start, boolean requireStartMarker) throws IOException {
        List<SegmentName> segments = listSegments(io, dir);
        if (segments.isEmpty()) {
            throw new WalException("wal: file not found in " + dir);
        }
        int first = SegmentName.lastStartingAtOrBefore(segments, start.index());
        if (first < 0) {
            throw new WalSnapshotNotFoundException("wal: snapshot not found: no segment in " + dir
                    + " reaches back to index " + start.index());
        }
        checkConsecutive(dir, segments, first);

        LogState state = new LogState(start, requireStartMarker);
        int crc = 0;
        boolean chainKnown = false;
        long tailEnd = 0;
        Optional<WalPosition> torn = Optional.empty();
        long tornDirtyEnd = 0;
        for (int i = first; i < segments.size(); i++) {
            Path file = dir.resolve(segments.get(i).fileName());
            byte[] bytes;
            try (DiskFile f = io.openForRead(file)) {
                bytes = f.readAll();
            }
            PendingWrite pending = new PendingWrite(file, state, crc);
            SegmentScanner scanner = new SegmentScanner(file, bytes, crc, chainKnown);
            SegmentScanner.Stop stop = scanner.scan(pending::add);
            crc = scanner.runningCrc();
            chainKnown = scanner.chainKnown();
            boolean last = i == segments.size() - 1;
            if (!stop.clean() && !(last && stop.looksTorn())) {
                throw new WalCorruptedException(new WalPosition(file, stop.end()), stop.problem()
                        + (last ? ", and intact records follow it" : " in a segment that is not the last one"));
            }
            if (!pending.isEmpty() && !last) {
                throw new WalCorruptedException(new WalPosition(file, pending.start()),
                        "a write that is not the last one is incomplete");
            }
            tailEnd = pending.isEmpty() ? stop.end() : pending.start();
            if (last && (!stop.clean() || !pending.isEmpty())) {
                // A torn final write: it never returned to the caller, so it is dropped whole.
                torn = Optional.of(new WalPosition(file, tailEnd));
                tornDirtyEnd = Math.max(stop.end(), stop.dirtyEnd());
                if (!pending.isEmpty()) {
                    crc = pending.crcBefore();
                }
            }
        }
        if (requireStartMarker && !state.startMarkerSeen()) {
            throw new WalSnapshotNotFoundException("wal: snapshot not found: " + start + " is not marked in " + dir);
        }
        if (state.metadata() == null) {
            throw new WalCorruptedException("wal: no metadata record in " + dir);
        }
        return new Recovered(state, segments, first, crc, tailEnd, torn, tornDirtyEnd);
    }

    /**
     * Records of the write being read; they reach the log state only when the record marking the
     * end of the write arrives, so a write cut short by a crash is dropped as a whole.
     */
    private static final class PendingWrite {
        private final Path file;
        private final LogState state;
        private final List<Pending> records = new ArrayList<>();
        private long start = -1;
        private int crcBefore;
        private int lastCrc;

        private record Pending(RecordType type, byte[] payload, long offset) {
        }

        PendingWrite(Path file, LogState state, int incomingCrc) {
            this.file = file;
            this.state = state;
            this.lastCrc = incomingCrc;
        }

        void add(RecordType type, byte[] payload, long offset, boolean writeEnd, int crcAfter)
                throws WalException {
            if (records.isEmpty()) {
                start = offset;
                crcBefore = lastCrc;
            }
            records.add(new Pending(type, payload, offset));
            lastCrc = crcAfter;
            if (writeEnd) {
                for (Pending r : records) {
                    if (r.type() != RecordType.CRC) {
                        state.apply(file, r.type(), r.payload(), r.offset());
                    }
                }
                records.clear();
            }
        }

        boolean isEmpty() {
            return records.isEmpty();
        }

        long start() {
            return start;
        }

        /** The running checksum before the incomplete write, where appending resumes. */
        int crcBefore() {
            return crcBefore;
        }
    }

    private static void checkConsecutive(Path dir, List<SegmentName> segments, int first) throws WalException {
        for (int i = first + 1; i < segments.size(); i++) {
            if (segments.get(i).seq() != segments.get(i - 1).seq() + 1) {
                throw new WalCorruptedException("wal: segment " + dir.resolve(segments.get(i).fileName())
                        + " does not follow " + segments.get(i - 1).fileName() + ": a segment is missing");
            }
        }
    }
}
