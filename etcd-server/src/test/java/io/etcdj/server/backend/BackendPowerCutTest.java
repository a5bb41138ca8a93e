package io.etcdj.server.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a power cut may leave of the backend file, made by hand: the disk holds the file as of the
 * last {@link Backend#sync()} plus any subset of the pages written since (the kernel writes dirty
 * pages back in any order, a newer meta page before the data it points to). Whatever the subset,
 * the backend must open on the last synced commit with every key of it readable.
 */
class BackendPowerCutTest {
    @TempDir
    Path dir;

    private static final int PAGE = 4096;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void opensOnTheSyncedCommitWhateverSubsetOfLaterPagesReachedTheDisk(long seed) throws Exception {
        Path live = dir.resolve("live/db");
        Random rnd = new Random(seed);
        TreeMap<String, String> synced = new TreeMap<>();
        Path diskAtSync = dir.resolve("at-sync");
        try (Backend b = Backend.open(live, 256L << 20)) {
            TreeMap<String, String> state = new TreeMap<>();
            for (int round = 0; round < 5; round++) {
                writeSome(b, state, rnd, round);
            }
            b.sync();
            synced.putAll(state);
            // the disk as of the sync: every page written so far is durable
            copyDir(live.getParent(), diskAtSync);
            for (int round = 5; round < 40; round++) {
                writeSome(b, state, rnd, round); // commits without a sync, overwriting and deleting
            }
            Path crashed = dir.resolve("crashed");
            Files.createDirectories(crashed);
            tear(diskAtSync.resolve("db"), live, crashed.resolve("db"), rnd);
            Files.copy(diskAtSync.resolve("db" + DurableCommit.SUFFIX), crashed.resolve("db" + DurableCommit.SUFFIX));
        }
        try (Backend reopened = Backend.open(dir.resolve("crashed/db"), 256L << 20)) {
            TreeMap<String, String> found = contents(reopened);
            assertTrue(synced.equals(found), "the synced commit, whole: " + synced.size() + " keys expected, "
                    + found.size() + " found, " + differing(synced, found) + " differ");
            // and the file takes new commits and a defragment afterwards
            WriteTx tx = reopened.beginWrite();
            tx.put(Bucket.KEY, bytes("after"), bytes("cut"));
            tx.commit();
            reopened.defragment();
            TreeMap<String, String> expected = new TreeMap<>(synced);
            expected.put("after", "cut");
            assertEquals(expected, contents(reopened));
        }
    }

    @Test
    void aSyncWithNothingCommittedSinceTheLastRewritesNoRecord() throws Exception {
        Path file = dir.resolve("db");
        Path record = dir.resolve("db" + DurableCommit.SUFFIX);
        try (Backend b = Backend.open(file, 64L << 20)) {
            WriteTx tx = b.beginWrite();
            tx.put(Bucket.KEY, bytes("a"), bytes("1"));
            tx.commit();
            b.sync();
            FileTime recorded = Files.getLastModifiedTime(record);
            Thread.sleep(50); // past the file system's timestamp granularity
            b.sync(); // an idle member's timer: every 100 ms
            b.sync();
            assertEquals(recorded, Files.getLastModifiedTime(record), "an idle sync wrote the record again");
            tx = b.beginWrite();
            tx.put(Bucket.KEY, bytes("b"), bytes("2"));
            tx.commit();
            b.sync();
            assertTrue(Files.getLastModifiedTime(record).compareTo(recorded) > 0, "a sync after a commit records it");
        }
        try (Backend b = Backend.open(file, 64L << 20)) {
            assertEquals(new TreeMap<>(Map.of("a", "1", "b", "2")), contents(b));
        }
    }

    @Test
    void aCleanCloseReopensOnItsLastCommit() throws Exception {
        Path file = dir.resolve("db");
        TreeMap<String, String> state = new TreeMap<>();
        try (Backend b = Backend.open(file, 64L << 20)) {
            writeSome(b, state, new Random(1), 0);
        }
        try (Backend b = Backend.open(file, 64L << 20)) {
            assertEquals(state, contents(b));
        }
    }

    @Test
    void aFileCreatedButNeverSyncedIsStartedAnew() throws Exception {
        Path file = dir.resolve("db");
        Path record = dir.resolve("db" + DurableCommit.SUFFIX);
        try (Backend b = Backend.open(file, 64L << 20)) {
            writeSome(b, new TreeMap<>(), new Random(2), 0);
        }
        // the record as it is before the first sync: no durable commit yet
        Files.write(record, new byte[1024]);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(0);
            f.write(new byte[2 * PAGE]); // meta pages that never reached the disk
        }
        try (Backend b = Backend.open(file, 64L << 20)) {
            assertEquals(new TreeMap<>(), contents(b));
        }
    }

    @Test
    void aFileShorterThanItsDurableCommitIsRefusedWithItsName() throws Exception {
        Path file = dir.resolve("db");
        try (Backend b = Backend.open(file, 64L << 20)) {
            writeSome(b, new TreeMap<>(), new Random(3), 0);
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(3 * PAGE);
        }
        BackendException e = assertThrows(BackendException.class, () -> Backend.open(file, 64L << 20));
        assertTrue(e.getMessage().contains(file + " is damaged"), e.getMessage());
    }

    @Test
    void aDefragmentedFileSurvivesACutRightAfterIt() throws Exception {
        Path file = dir.resolve("live/db");
        TreeMap<String, String> state = new TreeMap<>();
        try (Backend b = Backend.open(file, 64L << 20)) {
            writeSome(b, state, new Random(4), 0);
            b.defragment();
            // a power cut now keeps only what was synced: the defragmented file and its record
            // are synced by the defragment itself, so a copy of the directory is what survives
            copyDir(file.getParent(), dir.resolve("after-cut"));
        }
        try (Backend b = Backend.open(dir.resolve("after-cut/db"), 64L << 20)) {
            assertEquals(state, contents(b));
        }
    }

    @Test
    void aFileWithoutItsRecordIsTakenAsItIsAndRecordedAtOnce() throws Exception {
        // a data dir of an older version, or a cut between a defragment's rename and the new record
        Path file = dir.resolve("db");
        TreeMap<String, String> state = new TreeMap<>();
        try (Backend b = Backend.open(file, 64L << 20)) {
            writeSome(b, state, new Random(5), 0);
            b.defragment();
        }
        Path record = dir.resolve("db" + DurableCommit.SUFFIX);
        Files.delete(record);
        try (Backend b = Backend.open(file, 64L << 20)) {
            assertTrue(Files.size(record) > 0, "recorded before any commit");
            assertEquals(state, contents(b));
        }
    }

    private static long differing(TreeMap<String, String> a, TreeMap<String, String> b) {
        Set<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys.stream().filter(k -> !Objects.equals(a.get(k), b.get(k))).count();
    }

    private static void writeSome(Backend b, TreeMap<String, String> state, Random rnd, int round) {
        WriteTx tx = b.beginWrite();
        for (int i = 0; i < 200; i++) {
            String key = "k" + rnd.nextInt(600);
            if (rnd.nextInt(5) == 0 && state.containsKey(key)) {
                tx.delete(Bucket.KEY, bytes(key));
                state.remove(key);
            } else {
                String value = round + "-" + i + "-" + "v".repeat(rnd.nextInt(300));
                tx.put(Bucket.KEY, bytes(key), bytes(value));
                state.put(key, value);
            }
        }
        tx.commit();
    }

    private static TreeMap<String, String> contents(Backend b) {
        TreeMap<String, String> out = new TreeMap<>();
        try (ReadTx tx = b.beginRead()) {
            tx.forEach(Bucket.KEY, null, null, (k, v) -> {
                out.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8));
                return true;
            });
        }
        return out;
    }

    /**
     * Writes to {@code out} the file as it was at the sync with each page written since taken
     * from {@code now} with probability one half, and the meta pages always from {@code now}
     * (the worst case: the newest meta page reached the disk).
     */
    private static void tear(Path atSync, Path now, Path out, Random rnd) throws IOException {
        byte[] base = Files.readAllBytes(atSync);
        byte[] cur = Files.readAllBytes(now);
        int pages = (Math.max(base.length, cur.length) + PAGE - 1) / PAGE;
        byte[] disk = new byte[Math.max(base.length, cur.length)];
        int changed = 0;
        for (int p = 0; p < pages; p++) {
            int off = p * PAGE;
            byte[] from = base;
            boolean differs = !samePage(base, cur, off);
            if (differs && (p < 2 || rnd.nextBoolean())) {
                from = cur;
                changed++;
            }
            int len = Math.min(PAGE, Math.max(0, from.length - off));
            if (len > 0) {
                System.arraycopy(from, off, disk, off, len);
            }
        }
        assertTrue(changed > 2, "the unsynced commits changed pages");
        Files.write(out, disk);
        assertArrayEquals(Arrays.copyOf(cur, 2 * PAGE), Arrays.copyOf(disk, 2 * PAGE));
    }

    private static boolean samePage(byte[] a, byte[] b, int off) {
        for (int i = off; i < off + PAGE; i++) {
            byte x = i < a.length ? a[i] : 0;
            byte y = i < b.length ? b[i] : 0;
            if (x != y) {
                return false;
            }
        }
        return true;
    }

    private static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().endsWith("-lock")) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
