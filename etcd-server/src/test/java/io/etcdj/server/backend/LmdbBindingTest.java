package io.etcdj.server.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend's LMDB binding: what is written reads back as written (empty values, values on
 * overflow pages, keys LMDB refuses), ranges come in key order from where they are asked to start,
 * a failed write leaves the transaction and the file usable, and readers on other threads see
 * whole commits.
 */
class LmdbBindingTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyValueReadsBackAsWrittenAcrossSizesAndCollections() throws Exception {
        Random random = new Random(42);
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Backend b = Backend.open(dir.resolve("db"), 256L << 20)) {
            for (int batch = 0; batch < 20; batch++) {
                WriteTx tx = b.beginWrite();
                for (int i = 0; i < 200; i++) {
                    byte[] key = bytes("k/" + batch + "/" + i);
                    // from empty to 64 KiB: values on the leaf pages and on overflow pages
                    byte[] value = new byte[random.nextInt(4) == 0 ? random.nextInt(65536) : random.nextInt(300)];
                    random.nextBytes(value);
                    tx.put(Bucket.KEY, key, value);
                    keys.add(key);
                    values.add(value);
                }
                tx.commit();
                System.gc();
            }
            try (ReadTx r = b.beginRead()) {
                for (int i = 0; i < keys.size(); i++) {
                    assertArrayEquals(values.get(i), r.get(Bucket.KEY, keys.get(i)), "value of " + new String(keys.get(i)));
                }
                int[] seen = {0};
                r.forEach(Bucket.KEY, bytes("k/"), bytes("k0"), (k, v) -> {
                    seen[0]++;
                    return true;
                });
                assertEquals(keys.size(), seen[0]);
            }
        }
    }

    @Test
    void rangesComeInKeyOrderFromTheFirstKeyAtOrAfterTheirStart() {
        TreeMap<String, String> expected = new TreeMap<>();
        try (Backend b = Backend.open(dir.resolve("db"), 64L << 20)) {
            try (WriteTx tx = b.beginWrite()) {
                for (String k : List.of("b", "a", "d/2", "d/10", "c", "e", "d/1")) {
                    tx.put(Bucket.META, bytes(k), bytes("v-" + k));
                    expected.put(k, "v-" + k);
                }
                tx.put(Bucket.LEASE, bytes("other bucket"), bytes("x"));
                tx.commit();
            }
            try (ReadTx r = b.beginRead()) {
                assertEquals(List.of("a", "b", "c", "d/1", "d/10", "d/2", "e"), keysOf(r, null, null));
                assertEquals(List.of("c", "d/1", "d/10", "d/2"), keysOf(r, bytes("bb"), bytes("e")), "from the first key >= bb, before e");
                assertEquals(List.of("e"), keysOf(r, bytes("e"), null));
                assertEquals(List.of(), keysOf(r, bytes("f"), null), "past the last key");
                List<String> firstTwo = new ArrayList<>();
                r.forEach(Bucket.META, null, null, (k, v) -> {
                    firstTwo.add(new String(k, StandardCharsets.UTF_8) + "=" + new String(v, StandardCharsets.UTF_8));
                    return firstTwo.size() < 2;
                });
                assertEquals(List.of("a=v-a", "b=v-b"), firstTwo, "a visitor that says stop is not called again");
            }
        }
    }

    private static List<String> keysOf(ReadTx r, byte[] from, byte[] to) {
        List<String> keys = new ArrayList<>();
        r.forEach(Bucket.META, from, to, (k, v) -> keys.add(new String(k, StandardCharsets.UTF_8)));
        return keys;
    }

    @Test
    void emptyValuesLargeValuesDeletesAndMissingKeys() {
        byte[] large = new byte[3 << 20];
        new Random(7).nextBytes(large);
        try (Backend b = Backend.open(dir.resolve("db"), 64L << 20)) {
            try (WriteTx tx = b.beginWrite()) {
                tx.put(Bucket.KEY, bytes("empty"), new byte[0]);
                tx.put(Bucket.KEY, bytes("large"), large);
                tx.put(Bucket.KEY, bytes("gone"), bytes("soon"));
                assertArrayEquals(bytes("soon"), tx.get(Bucket.KEY, bytes("gone")), "a write transaction reads its own writes");
                tx.delete(Bucket.KEY, bytes("gone"));
                tx.delete(Bucket.KEY, bytes("never there"));
                tx.commit();
            }
            try (ReadTx r = b.beginRead()) {
                assertArrayEquals(new byte[0], r.get(Bucket.KEY, bytes("empty")));
                assertArrayEquals(large, r.get(Bucket.KEY, bytes("large")));
                assertNull(r.get(Bucket.KEY, bytes("gone")));
                assertNull(r.get(Bucket.KEY, bytes("never there")));
            }
        }
    }

    @Test
    void aKeyLmdbRefusesFailsThatWriteOnlyAndTheFileStaysUsable() {
        try (Backend b = Backend.open(dir.resolve("db"), 64L << 20)) {
            try (WriteTx tx = b.beginWrite()) {
                tx.put(Bucket.META, bytes("before"), bytes("1"));
                LmdbError e = assertThrows(LmdbError.class, () -> tx.put(Bucket.META, new byte[2000], bytes("x")));
                assertTrue(e.getMessage().startsWith("mdb_put: "), e.getMessage());
                assertEquals(-30781, e.resultCode(), "MDB_BAD_VALSIZE: " + e.getMessage());
                tx.put(Bucket.META, bytes("after"), bytes("2"));
                tx.commit();
            }
            try (ReadTx r = b.beginRead()) {
                assertArrayEquals(bytes("1"), r.get(Bucket.META, bytes("before")));
                assertArrayEquals(bytes("2"), r.get(Bucket.META, bytes("after")));
                assertNull(r.get(Bucket.META, new byte[2000]), "a key too long to store is not there");
            }
        }
    }

    @Test
    void aWriteThatDoesNotFitTheMapFailsAndLaterWritesWork() {
        try (Backend b = Backend.open(dir.resolve("db"), 0)) {
            long map = b.mapSize();
            WriteTx tx = b.beginWrite();
            LmdbError full = assertThrows(LmdbError.class, () -> {
                for (int i = 0; i < 10_000; i++) {
                    tx.put(Bucket.KEY, bytes("k" + i), new byte[(int) (map / 1000)]);
                }
            });
            tx.close();
            assertEquals(Lmdb.MAP_FULL, full.resultCode(), full.getMessage());
            try (WriteTx again = b.beginWrite()) {
                again.put(Bucket.KEY, bytes("small"), bytes("fits"));
                again.commit();
            }
            try (ReadTx r = b.beginRead()) {
                assertArrayEquals(bytes("fits"), r.get(Bucket.KEY, bytes("small")));
                assertNull(r.get(Bucket.KEY, bytes("k0")), "the failed transaction left nothing");
            }
        }
    }

    @Test
    void readersOnOtherThreadsSeeWholeCommits() throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(3);
        try (Backend b = Backend.open(dir.resolve("db"), 64L << 20)) {
            List<Future<?>> running = new ArrayList<>();
            boolean[] done = {false};
            for (int t = 0; t < 3; t++) {
                running.add(readers.submit(() -> {
                    while (!done[0]) {
                        try (ReadTx r = b.beginRead()) {
                            byte[] a = r.get(Bucket.META, bytes("a"));
                            byte[] c = r.get(Bucket.META, bytes("b"));
                            assertEquals(a == null, c == null, "both keys of one commit, or neither");
                            if (a != null) {
                                assertArrayEquals(a, c, "the two keys of one commit carry the same number");
                            }
                        }
                    }
                    return null;
                }));
            }
            for (int i = 0; i < 2000; i++) {
                try (WriteTx tx = b.beginWrite()) {
                    tx.put(Bucket.META, bytes("a"), bytes(Integer.toString(i)));
                    tx.put(Bucket.META, bytes("b"), bytes(Integer.toString(i)));
                    tx.commit();
                }
            }
            done[0] = true;
            for (Future<?> f : running) {
                f.get();
            }
            assertFalse(b.size() == 0);
        } finally {
            readers.shutdownNow();
        }
    }
}
