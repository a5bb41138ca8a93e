package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.file.Path;
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
            SegmentScanner scanner = new SegmentScanner(file, bytes, crc, chainKnown);
            SegmentScanner.Stop stop = scanner.scan((type, payload, offset) -> state.apply(file, type, payload, offset));
            crc = scanner.runningCrc();
            chainKnown = scanner.chainKnown();
            boolean last = i == segments.size() - 1;
            if (!stop.clean()) {
                WalPosition at = new WalPosition(file, stop.end());
                if (!last) {
                    throw new WalCorruptedException(at, stop.problem() + " in a segment that is not the last one");
                }
                if (!stop.looksTorn()) {
                    throw new WalCorruptedException(at, stop.problem() + ", and intact records follow it");
                }
                torn = Optional.of(at);
                tornDirtyEnd = stop.dirtyEnd();
            }
            tailEnd = stop.end();
        }
        if (requireStartMarker && !state.startMarkerSeen()) {
            throw new WalSnapshotNotFoundException("wal: snapshot not found: " + start + " is not marked in " + dir);
        }
        if (state.metadata() == null) {
            throw new WalCorruptedException("wal: no metadata record in " + dir);
        }
        return new Recovered(state, segments, first, crc, tailEnd, torn, tornDirtyEnd);
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
