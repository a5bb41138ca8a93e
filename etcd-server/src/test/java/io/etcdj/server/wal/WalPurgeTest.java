package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.entry;
import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalPurgeTest {

    @TempDir
    Path dir;

    private static WalOptions options(int maxWals) {
        return WalOptions.builder().segmentSizeBytes(2048).maxWals(maxWals).build();
    }

    /** Writes entries 1..count, one per save, and returns the WAL still open. */
    private Wal writeEntries(WalOptions opts, long count) throws IOException {
        Wal wal = Wal.create(dir, metadata(), opts);
        for (long i = 1; i <= count; i++) {
            wal.save(state(1, 1, i), List.of(entry(i, 1, "z".repeat(80))));
        }
        return wal;
    }

    @Test
    void nothingIsDeletedBeforeRelease() throws IOException {
        try (Wal wal = writeEntries(options(2), 200)) {
            assertTrue(segmentCount() > 5);
            assertEquals(segmentCount(), wal.segmentFiles().size());
        }
    }

    @Test
    void releasedSegmentsArePurgedDownToMaxWals() throws IOException {
        try (Wal wal = writeEntries(options(3), 200)) {
            int before = segmentCount();
            wal.saveSnapshot(new WalSnapshot(200, 1));
            int deleted = wal.releaseLockTo(200);
            assertEquals(3, segmentCount());
            assertEquals(before - 3, deleted);
            wal.save(state(1, 1, 201), range(201, 205, 1));
        }
        try (Wal wal = Wal.open(dir, new WalSnapshot(200, 1), options(3))) {
            assertEquals(range(201, 205, 1), wal.readAll().entries());
        }
        assertThrows(WalSnapshotNotFoundException.class, () -> Wal.open(dir, WalSnapshot.NONE, options(3)));
    }

    @Test
    void segmentsStillNeededAreKeptEvenAboveMaxWals() throws IOException {
        try (Wal wal = writeEntries(options(1), 200)) {
            wal.saveSnapshot(new WalSnapshot(100, 1));
            wal.releaseLockTo(100);
            List<Path> kept = wal.segmentFiles();
            assertTrue(kept.size() > 1, "segments after index 100 must stay");
            long firstKept = Long.parseLong(kept.get(0).getFileName().toString().substring(17, 33), 16);
            assertTrue(firstKept <= 101, "the segment holding entry 101 must stay, first kept starts at " + firstKept);
        }
        try (Wal wal = Wal.open(dir, new WalSnapshot(100, 1), options(1))) {
            assertEquals(100, wal.readAll().entries().size());
        }
    }

    @Test
    void zeroMaxWalsKeepsEverything() throws IOException {
        try (Wal wal = writeEntries(options(0), 200)) {
            int before = segmentCount();
            wal.saveSnapshot(new WalSnapshot(200, 1));
            assertEquals(0, wal.releaseLockTo(200));
            assertEquals(before, segmentCount());
        }
    }

    @Test
    void releaseBeforeTheFirstSegmentReleasesNothing() throws IOException {
        try (Wal wal = writeEntries(options(1), 200)) {
            int before = segmentCount();
            assertEquals(0, wal.releaseLockTo(0));
            assertEquals(before, segmentCount());
        }
    }

    private int segmentCount() throws IOException {
        try (var s = Files.list(dir)) {
            return (int) s.filter(p -> p.toString().endsWith(".wal")).count();
        }
    }
}
