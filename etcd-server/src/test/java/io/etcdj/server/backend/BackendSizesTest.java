package io.etcdj.server.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sizes a write's path reads without a system call follow the file: a small write may leave
 * them behind by a few commits, writes adding up to a megabyte never; the map grows before a
 * write could run into it.
 */
class BackendSizesTest {
    @TempDir
    Path dir;

    @Test
    void recentSizeCatchesUpWithinAMegabyteOfWrites() throws Exception {
        Path file = dir.resolve("db");
        try (Backend b = Backend.open(file, 64L << 20)) {
            assertEquals(Files.size(file), b.recentSize(), "exact right after opening");
            long before = b.recentSize();
            byte[] value = new byte[64 << 10];
            for (int i = 0; i < 40; i++) {
                b.ensureRoom(value.length);
                WriteTx tx = b.beginWrite();
                tx.put(Bucket.KEY, ("k" + i).getBytes(), value);
                tx.commit();
            }
            assertTrue(b.recentSize() > before + (1 << 20),
                    "2.5 MB written, the cached size grew past the first megabyte: " + before + " -> " + b.recentSize());
            assertTrue(Files.size(file) - b.recentSize() <= 2 * (1 << 20) + (64 << 10),
                    "behind the file by at most the refresh growth: " + b.recentSize() + " vs " + Files.size(file));
        }
    }

    @Test
    void theMapGrowsBeforeAWriteWouldFillIt() throws Exception {
        try (Backend b = Backend.open(dir.resolve("db"), 1L << 20)) {
            long map = b.mapSize();
            byte[] value = new byte[1 << 20];
            long written = 0;
            for (int i = 0; written < 2 * map; i++) {
                b.ensureRoom(value.length);
                WriteTx tx = b.beginWrite();
                tx.put(Bucket.KEY, ("k" + i).getBytes(), value);
                tx.commit();
                written += value.length;
            }
            assertTrue(b.mapSize() > map, "the map grew: " + map + " -> " + b.mapSize());
            assertTrue(b.sizeInUse() <= b.mapSize());
        }
    }
}
