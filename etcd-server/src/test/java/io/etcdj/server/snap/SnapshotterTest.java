package io.etcdj.server.snap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import io.etcdj.server.wal.SimulatedCrash;
import io.etcdj.server.wal.SimulatedDisk;
import io.etcdj.server.wal.WalSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotterTest {

    @TempDir
    Path dir;

    private static Snapshot snapshot(long term, long index) {
        return Snapshot.newBuilder()
                .setData(ByteString.copyFrom("state at " + index, StandardCharsets.UTF_8))
                .setMetadata(SnapshotMetadata.newBuilder().setTerm(term).setIndex(index)
                        .setConfState(ConfState.newBuilder().addVoters(1).addVoters(2).addVoters(3)))
                .build();
    }

    @Test
    void savesUnderTermAndIndexAndLoadsTheNewest() throws IOException {
        Snapshotter snap = new Snapshotter(dir);
        snap.save(snapshot(1, 10));
        snap.save(snapshot(2, 20));
        assertTrue(Files.exists(dir.resolve("0000000000000001-000000000000000a.snap")));
        assertTrue(Files.exists(dir.resolve("0000000000000002-0000000000000014.snap")));
        assertEquals(Optional.of(snapshot(2, 20)), snap.loadNewestAvailable(s -> true));
        assertEquals(List.of("0000000000000001-000000000000000a.snap", "0000000000000002-0000000000000014.snap"),
                names());
    }

    @Test
    void skipsSnapshotsTheWalDoesNotVouchFor() throws IOException {
        Snapshotter snap = new Snapshotter(dir);
        snap.save(snapshot(1, 10));
        snap.save(snapshot(2, 20));
        assertEquals(Optional.of(snapshot(1, 10)),
                snap.loadNewestAvailable(List.of(new WalSnapshot(10, 1))::contains));
        assertEquals(Optional.empty(), snap.loadNewestAvailable(s -> false));
    }

    @Test
    void corruptFilesAreSetAsideAsBrokenAndOlderOnesUsed() throws IOException {
        Snapshotter snap = new Snapshotter(dir);
        snap.save(snapshot(1, 10));
        snap.save(snapshot(2, 20));
        Path newest = dir.resolve("0000000000000002-0000000000000014.snap");
        byte[] bytes = Files.readAllBytes(newest);
        bytes[bytes.length - 2] ^= 0x10;
        Files.write(newest, bytes);
        assertEquals(Optional.of(snapshot(1, 10)), snap.loadNewestAvailable(s -> true));
        assertFalse(Files.exists(newest));
        assertTrue(Files.exists(dir.resolve("0000000000000002-0000000000000014.snap.broken")));
        SnapshotCorruptedException e = assertThrows(SnapshotCorruptedException.class,
                () -> Snapshotter.read(dir.resolve("0000000000000002-0000000000000014.snap.broken")));
        assertTrue(e.getMessage().startsWith("snap: crc mismatch"), e.getMessage());
    }

    @Test
    void emptyOrTruncatedFilesAreBrokenToo() throws IOException {
        Snapshotter snap = new Snapshotter(dir);
        Files.write(dir.resolve("0000000000000003-0000000000000030.snap"), new byte[0]);
        Files.write(dir.resolve("0000000000000004-0000000000000040.snap"), new byte[] {'E', 'S', 'N', 'P', 1});
        assertEquals(Optional.empty(), snap.loadNewestAvailable(s -> true));
        assertEquals(List.of("0000000000000003-0000000000000030.snap.broken",
                "0000000000000004-0000000000000040.snap.broken"), names());
    }

    @Test
    void aFileWhoseNameDisagreesWithItsContentIsBroken() throws IOException {
        Snapshotter snap = new Snapshotter(dir);
        snap.save(snapshot(1, 10));
        Files.move(dir.resolve("0000000000000001-000000000000000a.snap"), dir.resolve("0000000000000001-000000000000000b.snap"));
        assertEquals(Optional.empty(), snap.loadNewestAvailable(s -> true));
    }

    @Test
    void emptySnapshotIsNotWritten() throws IOException {
        new Snapshotter(dir).save(Snapshot.getDefaultInstance());
        assertEquals(List.of(), names());
    }

    @Test
    void purgeKeepsTheNewestAndNeverTouchesOtherFiles() throws IOException {
        Files.writeString(dir.resolve("db"), "backend");
        Files.writeString(dir.resolve("notes.snap.txt"), "someone else's");
        Snapshotter snap = new Snapshotter(dir);
        for (long i = 1; i <= 8; i++) {
            snap.save(snapshot(1, i * 100));
        }
        assertEquals(5, snap.purge(3));
        assertEquals(List.of("0000000000000001-0000000000000258.snap", "0000000000000001-00000000000002bc.snap",
                "0000000000000001-0000000000000320.snap", "db", "notes.snap.txt"), names());
        assertEquals(0, snap.purge(0));
        assertEquals("backend", Files.readString(dir.resolve("db")));
    }

    @Test
    void aCrashWhileSavingLeavesTheOldSnapshotOrTheNewOneNeverAHalf() throws IOException {
        Path snapDir = Path.of("/sim/member/snap");
        for (SimulatedDisk.Crash kind : SimulatedDisk.Crash.values()) {
            for (int k = 1; k <= 5; k++) {
                SimulatedDisk disk = new SimulatedDisk();
                disk.createDurableDirectories(snapDir);
                Snapshotter snap = new Snapshotter(snapDir, disk);
                snap.save(snapshot(1, 10));
                disk.crashAt(disk.mutations() + k, 0.5);
                boolean returned = false;
                try {
                    snap.save(snapshot(1, 20));
                    returned = true;
                } catch (SimulatedCrash expected) {
                    // died mid-save
                }
                SimulatedDisk after = disk.afterCrash(kind);
                Snapshotter restarted = new Snapshotter(snapDir, after);
                Optional<Snapshot> loaded = restarted.loadNewestAvailable(s -> true);
                String where = kind + " at write point " + k;
                assertTrue(loaded.equals(Optional.of(snapshot(1, 20)))
                        || (!returned && loaded.equals(Optional.of(snapshot(1, 10)))), where + ": loaded " + loaded);
                restarted.purge(5);
                assertTrue(after.list(snapDir).stream().noneMatch(n -> n.endsWith(".tmp")), where + ": " + after.list(snapDir));
            }
        }
    }

    private List<String> names() throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
