package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.HardState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Group commit: one fsync per save() that needs one, counted on a recording disk. */
class WalFsyncTest {

    private static final Path DIR = Path.of("/sim/member/wal");

    private SimulatedDisk disk;
    private final List<Long> fsyncNanos = new ArrayList<>();

    @BeforeEach
    void setUp() {
        disk = new SimulatedDisk();
        disk.createDurableDirectories(DIR.getParent());
    }

    private WalOptions.Builder options() {
        // Large segments: no cut (which has fsyncs of its own) happens in these tests.
        return WalOptions.builder().diskIo(disk).segmentSizeBytes(1 << 20).fsyncDurationNanos(fsyncNanos::add);
    }

    @Test
    void everySaveWithEntriesFsyncsExactlyOnceWhateverTheBatchSize() throws IOException {
        try (Wal wal = Wal.create(DIR, metadata(), options().build())) {
            long next = 1;
            for (int batch : new int[] {1, 2, 10, 100, 1}) {
                int before = disk.fileSyncs();
                int writesBefore = disk.mutations();
                wal.save(state(1, 1, next - 1), range(next, next + batch - 1, 1));
                assertEquals(1, disk.fileSyncs() - before, "fsyncs for a batch of " + batch);
                assertEquals(2, disk.mutations() - writesBefore, "one write and one fsync for a batch of " + batch);
                next += batch;
            }
        }
    }

    @Test
    void termOrVoteChangeFsyncsCommitOnlyChangeDoesNot() throws IOException {
        try (Wal wal = Wal.create(DIR, metadata(), options().build())) {
            wal.save(state(1, 0, 0), List.of());
            int syncs = disk.fileSyncs();
            wal.save(state(1, 3, 0), List.of()); // vote
            assertEquals(syncs + 1, disk.fileSyncs());
            wal.save(state(2, 3, 0), List.of()); // term
            assertEquals(syncs + 2, disk.fileSyncs());
            int writes = disk.mutations();
            wal.save(state(2, 3, 7), List.of()); // commit only: written, not synced
            assertEquals(syncs + 2, disk.fileSyncs());
            assertEquals(writes + 1, disk.mutations());
        }
    }

    @Test
    void unchangedOrEmptyStateWithoutEntriesTouchesNothing() throws IOException {
        try (Wal wal = Wal.create(DIR, metadata(), options().build())) {
            wal.save(state(1, 1, 1), range(1, 1, 1));
            int mutations = disk.mutations();
            wal.save(state(1, 1, 1), List.of());
            wal.save(HardState.getDefaultInstance(), List.of());
            assertEquals(mutations, disk.mutations());
        }
    }

    @Test
    void snapshotMarkerFsyncsOnce() throws IOException {
        try (Wal wal = Wal.create(DIR, metadata(), options().build())) {
            wal.save(state(1, 1, 3), range(1, 3, 1));
            int syncs = disk.fileSyncs();
            wal.saveSnapshot(new WalSnapshot(3, 1));
            assertEquals(syncs + 1, disk.fileSyncs());
        }
    }

    @Test
    void listenerHearsEveryDataFsync() throws IOException {
        try (Wal wal = Wal.create(DIR, metadata(), options().build())) {
            fsyncNanos.clear();
            int syncs = disk.fileSyncs();
            for (long i = 1; i <= 5; i++) {
                wal.save(state(1, 1, i - 1), range(i, i, 1));
            }
            assertEquals(disk.fileSyncs() - syncs, fsyncNanos.size());
            assertEquals(5, fsyncNanos.size());
            assertTrue(fsyncNanos.stream().allMatch(n -> n >= 0));
        }
    }

    @Test
    void unsafeNoFsyncNeverSyncs() throws IOException {
        WalOptions opts = options().unsafeNoFsync(true).segmentSizeBytes(2048).build();
        try (Wal wal = Wal.create(DIR, metadata(), opts)) {
            for (long i = 1; i <= 100; i++) {
                wal.save(state(1, 1, i - 1), range(i, i, 1));
            }
        }
        assertEquals(0, disk.fileSyncs());
        assertEquals(0, disk.directorySyncs());
        assertTrue(fsyncNanos.isEmpty());
        try (Wal wal = Wal.open(DIR, WalSnapshot.NONE, opts)) {
            assertEquals(range(1, 100, 1), wal.readAll().entries());
        }
    }

    @Test
    void aFailedWriteMakesTheWalRefuseFurtherWrites() throws IOException {
        Wal wal = Wal.create(DIR, metadata(), options().build());
        disk.crashAt(disk.mutations() + 1, 0.5);
        assertThrows(SimulatedCrash.class, () -> wal.save(state(1, 1, 0), range(1, 1, 1)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> wal.save(state(1, 1, 0), range(1, 1, 1)));
        assertTrue(e.getMessage().contains("unusable"), e.getMessage());
    }
}
