package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.entry;
import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalRecoveryTest {

    private static final String FIRST = "0000000000000000-0000000000000000.wal";

    @TempDir
    Path tmp;

    private final WalOptions opts = WalOptions.builder().segmentSizeBytes(8192).build();

    /** The bytes of the first segment before and after the last save, plus the range that save wrote. */
    private record LastWrite(byte[] before, byte[] after, int from, int to) {
    }

    private LastWrite writeFiveThenOneMore(Path dir, List<Entry> last) throws IOException {
        try (Wal wal = Wal.create(dir, metadata(), opts)) {
            for (long i = 1; i <= 5; i++) {
                wal.save(state(1, 1, i - 1), range(i, i, 1));
            }
            byte[] before = Files.readAllBytes(dir.resolve(FIRST));
            wal.save(state(1, 1, 5), last);
            byte[] after = Files.readAllBytes(dir.resolve(FIRST));
            int from = 0;
            while (before[from] == after[from]) {
                from++;
            }
            int to = after.length;
            while (before[to - 1] == after[to - 1]) {
                to--;
            }
            return new LastWrite(before, after, from, to);
        }
    }

    @Test
    void tornLastWriteIsCutAtEveryByteOffset() throws IOException {
        Path original = tmp.resolve("original");
        LastWrite w = writeFiveThenOneMore(original, range(6, 8, 1));
        assertTrue(w.to() - w.from() > 100, "the last write spans three entries and a state");
        for (int cut = w.from(); cut < w.to(); cut++) {
            Path dir = tmp.resolve("cut" + cut);
            Files.createDirectories(dir);
            byte[] torn = w.after().clone();
            System.arraycopy(w.before(), cut, torn, cut, w.to() - cut); // only bytes before `cut` reached the disk
            Files.write(dir.resolve(FIRST), torn);

            try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
                WalReadResult r = wal.readAll();
                assertEquals(range(1, 5, 1), r.entries(), "cut at " + cut);
                assertEquals(state(1, 1, 4), r.hardState(), "cut at " + cut);
                assertEquals(cut == w.from() ? Optional.empty() : Optional.of(new WalPosition(dir.resolve(FIRST), w.from())),
                        r.tornTail(), "cut at " + cut);
                wal.save(state(2, 2, 5), range(6, 7, 2));
            }
            try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
                List<Entry> expected = new ArrayList<>(range(1, 5, 1));
                expected.addAll(range(6, 7, 2));
                WalReadResult r = wal.readAll();
                assertEquals(expected, r.entries(), "cut at " + cut);
                assertEquals(Optional.empty(), r.tornTail());
            }
        }
    }

    @Test
    void garbageInThePreallocatedTailIsCut() throws IOException {
        Path dir = tmp.resolve("wal");
        LastWrite w = writeFiveThenOneMore(dir, range(6, 6, 1));
        byte[] bytes = w.after().clone();
        Arrays.fill(bytes, w.to() + 40, w.to() + 140, (byte) 0x5a); // not a frame: a stray partial write
        Files.write(dir.resolve(FIRST), bytes);
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
            WalReadResult r = wal.readAll();
            assertEquals(range(1, 6, 1), r.entries());
            assertTrue(r.tornTail().isPresent());
        }
        byte[] repaired = Files.readAllBytes(dir.resolve(FIRST));
        for (int i = w.to(); i < repaired.length; i++) {
            assertEquals(0, repaired[i], "byte " + i + " should have been zeroed");
        }
    }

    @Test
    void damageFollowedByIntactRecordsRefusesWithFileAndOffset() throws IOException {
        Path dir = tmp.resolve("wal");
        LastWrite w = writeFiveThenOneMore(dir, range(6, 8, 1));
        for (int victim : new int[] {w.from() - 30, w.from() + 20}) {
            byte[] bytes = w.after().clone();
            bytes[victim] ^= 0x40;
            Files.write(dir.resolve(FIRST), bytes);
            try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
                WalCorruptedException e = assertThrows(WalCorruptedException.class, wal::readAll);
                assertTrue(e.getMessage().startsWith("wal: corrupt record in " + dir.resolve(FIRST) + " at offset "),
                        e.getMessage());
                long offset = e.position().orElseThrow().offset();
                assertTrue(offset <= victim && victim - offset < 120, "offset " + offset + " for damage at " + victim);
                assertTrue(e.getMessage().endsWith("intact records follow it"), e.getMessage());
            }
            assertThrows(WalCorruptedException.class, () -> Wal.verify(dir, WalSnapshot.NONE));
            // Refusing must not have repaired anything.
            byte[] unchanged = Files.readAllBytes(dir.resolve(FIRST));
            assertEquals(w.after()[victim] ^ 0x40, unchanged[victim]);
        }
    }

    @Test
    void damageInAnEarlierSegmentRefusesEvenAtItsEnd() throws IOException {
        Path dir = tmp.resolve("wal");
        try (Wal wal = Wal.create(dir, metadata(), WalOptions.builder().segmentSizeBytes(2048).build())) {
            for (long i = 1; i <= 100; i++) {
                wal.save(state(1, 1, i), List.of(entry(i, 1, "q".repeat(50))));
            }
        }
        Path first = dir.resolve(FIRST);
        byte[] bytes = Files.readAllBytes(first);
        bytes[bytes.length - 3] ^= 1; // last record of a finished segment
        Files.write(first, bytes);
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
            WalCorruptedException e = assertThrows(WalCorruptedException.class, wal::readAll);
            assertTrue(e.getMessage().contains(first.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("not the last one"), e.getMessage());
        }
    }

    @Test
    void missingMiddleSegmentIsCorruption() throws IOException {
        Path dir = tmp.resolve("wal");
        try (Wal wal = Wal.create(dir, metadata(), WalOptions.builder().segmentSizeBytes(2048).build())) {
            for (long i = 1; i <= 100; i++) {
                wal.save(state(1, 1, i), List.of(entry(i, 1, "q".repeat(50))));
            }
        }
        try (var files = Files.list(dir)) {
            Path second = files.filter(p -> p.getFileName().toString().startsWith("0000000000000001-")).findFirst().orElseThrow();
            Files.delete(second);
        }
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
            WalCorruptedException e = assertThrows(WalCorruptedException.class, wal::readAll);
            assertTrue(e.getMessage().contains("a segment is missing"), e.getMessage());
        }
    }

    @Test
    void verifyReportsATornTailWithoutRepairingIt() throws IOException {
        Path dir = tmp.resolve("wal");
        LastWrite w = writeFiveThenOneMore(dir, range(6, 6, 1));
        byte[] torn = w.after().clone();
        System.arraycopy(w.before(), w.to() - 5, torn, w.to() - 5, 5);
        Files.write(dir.resolve(FIRST), torn);
        WalReadResult r = Wal.verify(dir, WalSnapshot.NONE);
        assertEquals(range(1, 5, 1), r.entries());
        assertEquals(Optional.of(new WalPosition(dir.resolve(FIRST), w.from())), r.tornTail());
        assertArrayEquals(torn, Files.readAllBytes(dir.resolve(FIRST)));
    }

    @Test
    void zeroedSectorsOfAnUnsyncedWriteCountAsTorn() throws IOException {
        // Pages of one write can reach the disk out of order: a later page lands, an earlier one not.
        Path dir = tmp.resolve("wal");
        LastWrite w = writeFiveThenOneMore(dir, range(6, 40, 1));
        assertTrue(w.to() - w.from() > 3 * SegmentScanner.SECTOR_BYTES);
        byte[] bytes = w.after().clone();
        int sector = (w.from() / SegmentScanner.SECTOR_BYTES + 1) * SegmentScanner.SECTOR_BYTES;
        Arrays.fill(bytes, sector, sector + SegmentScanner.SECTOR_BYTES, (byte) 0);
        Files.write(dir.resolve(FIRST), bytes);
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, opts)) {
            WalReadResult r = wal.readAll();
            assertEquals(range(1, 5, 1), r.entries());
            assertTrue(r.tornTail().isPresent());
        }
    }

    /**
     * A power cut that lost the page holding the start of the last write (back to its synced
     * bytes: zeros from where the write began) and kept the next one. The write began 16 to 400
     * bytes before a page's end, so no whole zero sector separates the gap from the records after
     * it; seen in the power-loss suite ("no record header, and intact records follow it").
     */
    @Test
    void aLostPageBeforeAKeptOneCountsAsTornWhereTheWriteBeganNearThePageEnd() throws IOException {
        Path dir = tmp.resolve("wal");
        int page = SegmentScanner.PAGE_BYTES;
        byte[] before;
        long i = 0;
        try (Wal wal = Wal.create(dir, metadata(), WalOptions.builder().segmentSizeBytes(1 << 16).build())) {
            int end;
            do {
                i++;
                wal.save(state(1, 1, i - 1), List.of(entry(i, 1, "p".repeat((int) (i * 7 % 90) + 1))));
                before = Files.readAllBytes(dir.resolve(FIRST));
                end = before.length;
                while (before[end - 1] == 0) {
                    end--;
                }
                end = (end + 7) / 8 * 8;
            } while (page - end % page < 16 || page - end % page > 400);
            wal.save(state(1, 1, i), range(i + 1, i + 20, 1));
        }
        byte[] after = Files.readAllBytes(dir.resolve(FIRST));
        int from = 0;
        while (before[from] == after[from]) {
            from++;
        }
        int pageEnd = (from / page + 1) * page;
        byte[] torn = after.clone();
        System.arraycopy(before, from, torn, from, pageEnd - from); // that page as it was synced
        Files.write(dir.resolve(FIRST), torn);
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, WalOptions.builder().segmentSizeBytes(1 << 16).build())) {
            WalReadResult r = wal.readAll();
            assertEquals(i, r.entries().get(r.entries().size() - 1).getIndex(), "the synced entries, not the torn write's");
            assertEquals(Optional.of(new WalPosition(dir.resolve(FIRST), from)), r.tornTail());
        }
    }
}
