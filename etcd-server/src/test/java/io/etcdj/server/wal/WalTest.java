package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.entry;
import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalTest {

    @TempDir
    Path tmp;

    private final WalOptions small = WalOptions.builder().segmentSizeBytes(4096).build();

    private Path walDir() {
        return tmp.resolve("member").resolve("wal");
    }

    @Test
    void roundTripsMetadataStateAndEntries() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 0), range(1, 3, 1));
            wal.save(state(1, 1, 3), List.of());
        }
        assertTrue(Wal.exists(walDir()));
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            WalReadResult r = wal.readAll();
            assertArrayEquals(metadata(), r.metadata());
            assertEquals(state(1, 1, 3), r.hardState());
            assertEquals(range(1, 3, 1), r.entries());
            assertEquals(Optional.empty(), r.tornTail());
        }
    }

    @Test
    void newWalReadsBackEmpty() throws IOException {
        Wal.create(walDir(), metadata(), small).close();
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            WalReadResult r = wal.readAll();
            assertEquals(HardState.getDefaultInstance(), r.hardState());
            assertEquals(List.of(), r.entries());
        }
        assertEquals(List.of("0000000000000000-0000000000000000.wal"), fileNames());
    }

    @Test
    void segmentFilesArePreallocatedAndFullOnesAreTrimmed() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            assertEquals(4096, Files.size(walDir().resolve("0000000000000000-0000000000000000.wal")));
            for (long i = 1; i <= 60; i++) {
                wal.save(state(1, 1, i - 1), List.of(entry(i, 1, "x".repeat(100))));
            }
        }
        List<String> names = fileNames();
        assertTrue(names.size() > 2, "expected several segments, got " + names);
        for (int i = 0; i < names.size(); i++) {
            assertEquals(String.format("%016x", i), names.get(i).substring(0, 16));
            long size = Files.size(walDir().resolve(names.get(i)));
            if (i < names.size() - 1) {
                assertTrue(size >= 4096 && size < 4096 + 256, names.get(i) + " has " + size + " bytes");
            } else {
                assertEquals(4096, size);
            }
        }
    }

    @Test
    void manySegmentsReadBackInOrder() throws IOException {
        List<Entry> written = new ArrayList<>();
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            for (long i = 1; i <= 500; i += 5) {
                List<Entry> batch = range(i, i + 4, 2);
                wal.save(state(2, 1, i - 1), batch);
                written.addAll(batch);
            }
        }
        assertTrue(fileNames().size() > 5, fileNames().toString());
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            WalReadResult r = wal.readAll();
            assertEquals(written, r.entries());
            assertEquals(state(2, 1, 495), r.hardState());
        }
    }

    @Test
    void segmentNamesCarryTheFirstIndexAfterTheCut() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            for (long i = 1; i <= 100; i++) {
                wal.save(state(1, 1, 0), List.of(entry(i, 1, "y".repeat(60))));
            }
        }
        List<String> names = fileNames();
        long previous = 0;
        for (int s = 1; s < names.size(); s++) {
            long firstIndex = Long.parseLong(names.get(s).substring(17, 33), 16);
            assertTrue(firstIndex > previous && firstIndex <= 100, names.toString());
            previous = firstIndex;
        }
    }

    @Test
    void reopenedWalAppendsAfterTheLastRecord() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 0), range(1, 10, 1));
        }
        for (int round = 0; round < 5; round++) {
            try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
                WalReadResult r = wal.readAll();
                long last = r.entries().get(r.entries().size() - 1).getIndex();
                assertEquals(10 + round * 30L, last);
                wal.save(state(1, 1, last), range(last + 1, last + 30, 1));
            }
        }
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            assertEquals(range(1, 160, 1), wal.readAll().entries());
        }
    }

    @Test
    void laterEntriesReplaceEarlierOnesFromTheirIndexOn() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 2), range(1, 5, 1));
            wal.save(state(2, 2, 2), range(3, 4, 2)); // a new leader truncated 3..5
        }
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            List<Entry> expected = new ArrayList<>(range(1, 2, 1));
            expected.addAll(range(3, 4, 2));
            assertEquals(expected, wal.readAll().entries());
        }
    }

    @Test
    void readAllAfterASnapshotReturnsOnlyLaterEntries() throws IOException {
        ConfState conf = ConfState.newBuilder().addVoters(1).addVoters(2).addVoters(3).build();
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 10), range(1, 10, 1));
            wal.saveSnapshot(new WalSnapshot(7, 1, conf));
            wal.save(state(1, 1, 12), range(11, 12, 1));
        }
        try (Wal wal = Wal.open(walDir(), new WalSnapshot(7, 1), small)) {
            WalReadResult r = wal.readAll();
            assertEquals(range(8, 12, 1), r.entries());
            assertEquals(state(1, 1, 12), r.hardState());
        }
        List<WalSnapshot> valid = Wal.validSnapshots(walDir(), small);
        assertEquals(List.of(new WalSnapshot(0, 0), new WalSnapshot(7, 1)), valid);
        assertEquals(conf, valid.get(1).confState());
    }

    @Test
    void validSnapshotsLeavesOutMarkersBeyondTheCommitIndex() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 5), range(1, 10, 1));
            wal.saveSnapshot(new WalSnapshot(5, 1));
            wal.saveSnapshot(new WalSnapshot(9, 1));
        }
        assertEquals(List.of(WalSnapshot.NONE, new WalSnapshot(5, 1)), Wal.validSnapshots(walDir(), small));
    }

    @Test
    void saveWithNothingNewWritesNothing() throws IOException {
        Path first = walDir().resolve("0000000000000000-0000000000000000.wal");
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 0), range(1, 1, 1));
            byte[] before = Files.readAllBytes(first);
            wal.save(state(1, 1, 0), List.of());
            wal.save(HardState.getDefaultInstance(), List.of());
            assertArrayEquals(before, Files.readAllBytes(first));
        }
    }

    @Test
    void createRefusesADirectoryThatHoldsAWal() throws IOException {
        Wal.create(walDir(), metadata(), small).close();
        WalException e = assertThrows(WalException.class, () -> Wal.create(walDir(), metadata(), small));
        assertTrue(e.getMessage().startsWith("wal: "), e.getMessage());
    }

    @Test
    void existsIsFalseForMissingOrForeignDirectories() throws IOException {
        assertFalse(Wal.exists(walDir()));
        Files.createDirectories(walDir());
        Files.writeString(walDir().resolve("notes.txt"), "not a segment");
        assertFalse(Wal.exists(walDir()));
        WalException e = assertThrows(WalException.class, () -> Wal.open(walDir(), WalSnapshot.NONE, small));
        assertTrue(e.getMessage().contains("wal: file not found"), e.getMessage());
    }

    @Test
    void writingBeforeReadAllIsRefused() throws IOException {
        Wal.create(walDir(), metadata(), small).close();
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            assertThrows(IllegalStateException.class, () -> wal.save(state(1, 1, 0), range(1, 1, 1)));
        }
    }

    @Test
    void snapshotNotMarkedInTheWalIsAClearError() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 10), range(1, 10, 1));
            wal.saveSnapshot(new WalSnapshot(5, 1));
        }
        try (Wal wal = Wal.open(walDir(), new WalSnapshot(6, 1), small)) {
            WalException e = assertThrows(WalSnapshotNotFoundException.class, wal::readAll);
            assertTrue(e.getMessage().startsWith("wal: snapshot not found"), e.getMessage());
        }
        try (Wal wal = Wal.open(walDir(), new WalSnapshot(5, 3), small)) {
            WalException e = assertThrows(WalSnapshotNotFoundException.class, wal::readAll);
            assertTrue(e.getMessage().startsWith("wal: snapshot mismatch"), e.getMessage());
        }
    }

    @Test
    void strayTemporarySegmentIsIgnoredAndRemoved() throws IOException {
        try (Wal wal = Wal.create(walDir(), metadata(), small)) {
            wal.save(state(1, 1, 0), range(1, 3, 1));
        }
        Path stray = walDir().resolve("0000000000000001-0000000000000004.wal.tmp");
        Files.write(stray, new byte[] {1, 2, 3});
        try (Wal wal = Wal.open(walDir(), WalSnapshot.NONE, small)) {
            assertEquals(range(1, 3, 1), wal.readAll().entries());
        }
        assertFalse(Files.exists(stray));
    }

    private List<String> fileNames() throws IOException {
        try (var s = Files.list(walDir())) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
