package io.etcdj.server.bbolt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written by {@link BboltWriter} read back through {@link BboltReader}; damaged files are refused by name. */
class BboltRoundTripTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** bucket name → (key → value), both in byte order, as the writer needs them. */
    private static Map<String, TreeMap<byte[], byte[]>> sample(int keys, int bigValues) {
        Map<String, TreeMap<byte[], byte[]>> data = new LinkedHashMap<>();
        TreeMap<byte[], byte[]> many = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < keys; i++) {
            many.put(b(String.format("key-%06d", i)), b("value of " + i));
        }
        TreeMap<byte[], byte[]> big = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < bigValues; i++) {
            byte[] v = new byte[10_000 + i * 5_000];
            Arrays.fill(v, (byte) ('a' + i));
            big.put(b("big" + i), v);
        }
        // small buckets are written inline, as bbolt writes them: an empty one and one of two keys
        data.put("alarm", new TreeMap<>(Arrays::compareUnsigned));
        TreeMap<byte[], byte[]> small = new TreeMap<>(Arrays::compareUnsigned);
        small.put(b("authEnabled"), new byte[] {1});
        small.put(b("authRevision"), new byte[8]);
        data.put("auth", small);
        data.put("big", big);
        data.put("key", many);
        return data;
    }

    private Path write(Map<String, TreeMap<byte[], byte[]>> data, int pageSize) throws BboltException {
        Path file = dir.resolve("db-" + pageSize + "-" + data.hashCode());
        try (BboltWriter w = BboltWriter.create(file, pageSize)) {
            for (var bucket : data.entrySet()) {
                w.beginBucket(b(bucket.getKey()));
                for (var e : bucket.getValue().entrySet()) {
                    w.put(e.getKey(), e.getValue());
                }
                w.endBucket();
            }
            w.finish();
        }
        return file;
    }

    private static Map<String, List<byte[][]>> readAll(Path file, long length) throws BboltException {
        Map<String, List<byte[][]>> out = new LinkedHashMap<>();
        try (BboltReader r = BboltReader.open(file, length)) {
            r.forEachTopLevel((name, header, bucket) -> {
                assertTrue(bucket, "top-level element is a bucket");
                List<byte[][]> entries = new ArrayList<>();
                r.forEachInBucket(header, (k, v, nested) -> entries.add(new byte[][] {k, v}));
                out.put(new String(name, StandardCharsets.UTF_8), entries);
            });
        }
        return out;
    }

    private static void assertSame(Map<String, TreeMap<byte[], byte[]>> expected, Map<String, List<byte[][]>> actual) {
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
        for (var bucket : expected.entrySet()) {
            List<byte[][]> got = actual.get(bucket.getKey());
            assertEquals(bucket.getValue().size(), got.size(), "entries of " + bucket.getKey());
            int i = 0;
            for (var e : bucket.getValue().entrySet()) {
                assertArrayEquals(e.getKey(), got.get(i)[0]);
                assertArrayEquals(e.getValue(), got.get(i)[1], "value of " + new String(e.getKey()));
                i++;
            }
        }
    }

    @Test
    void manyKeysSpanBranchPagesAndBigValuesOverflowPages() throws Exception {
        var data = sample(20_000, 4);
        Path file = write(data, 4096);
        try (BboltReader r = BboltReader.open(file)) {
            // 20,000 keys of ~30 bytes cannot fit in fewer than ~150 leaves: a branch level must exist
            assertTrue(r.meta().highWater() > 150, "pages: " + r.meta().highWater());
            assertEquals(Files.size(file), r.size(), "the file is exactly the pages in use");
            assertEquals(2, r.meta().freelist());
        }
        assertSame(data, readAll(file, -1));
    }

    @Test
    void smallBucketsAreInlineLargeOnesHavePages() throws Exception {
        Path file = write(sample(300, 1), 4096);
        Map<String, Long> roots = new LinkedHashMap<>();
        Map<String, Integer> headerSizes = new LinkedHashMap<>();
        try (BboltReader r = BboltReader.open(file)) {
            r.forEachTopLevel((name, header, bucket) -> {
                roots.put(new String(name), ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getLong());
                headerSizes.put(new String(name), header.length);
            });
        }
        assertEquals(0L, roots.get("alarm"));
        assertEquals(32, headerSizes.get("alarm"), "an empty inline bucket: its header and an empty leaf header");
        assertEquals(0L, roots.get("auth"));
        assertTrue(roots.get("big") > 2 && roots.get("key") > 2, roots.toString());
    }

    @Test
    void otherPageSizesRoundTrip() throws Exception {
        var data = sample(3_000, 2);
        assertSame(data, readAll(write(data, 16384), -1));
    }

    @Test
    void aTrailerAfterTheDatabaseIsIgnoredWhenTheLengthIsGiven() throws Exception {
        var data = sample(100, 1);
        Path file = write(data, 4096);
        long size = Files.size(file);
        Files.write(file, new byte[32], StandardOpenOption.APPEND);
        assertSame(data, readAll(file, size));
    }

    @Test
    void bucketsAndKeysOutOfOrderAreRefused() throws Exception {
        try (BboltWriter w = BboltWriter.create(dir.resolve("x"), 4096)) {
            w.beginBucket(b("meta"));
            w.put(b("b"), b("1"));
            assertThrows(BboltException.class, () -> w.put(b("a"), b("2")));
            w.endBucket();
            assertThrows(BboltException.class, () -> w.beginBucket(b("key")));
        }
    }

    @Test
    void aTruncatedFileIsNamedTruncated() throws Exception {
        Path file = write(sample(5_000, 0), 4096);
        long size = Files.size(file);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size / 2);
        }
        BboltException e = assertThrows(BboltException.class, () -> readAll(file, -1));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void oneBadMetaFallsBackToTheOtherBothBadIsAnError() throws Exception {
        var data = sample(200, 0);
        Path file = write(data, 4096);
        flipByte(file, 16 + 40); // meta 0's high-water mark: its checksum no longer matches
        assertSame(data, readAll(file, -1));
        flipByte(file, 4096 + 16 + 40);
        BboltException e = assertThrows(BboltException.class, () -> readAll(file, -1));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void aCorruptedPageIsRefusedNotMisread() throws Exception {
        Path file = write(sample(5_000, 0), 4096);
        // pages 3 to 5 are leaves of the key bucket (alarm and auth are inline, big is empty and inline too)
        for (long page = 3; page < 6; page++) {
            flipByte(file, page * 4096); // the page id in the header
        }
        BboltException e = assertThrows(BboltException.class, () -> readAll(file, -1));
        assertTrue(e.getMessage().contains("header says page"), e.getMessage());
    }

    @Test
    void elementsPointingOutsideTheirPageAreRefused() throws Exception {
        Path file = write(sample(200, 0), 4096);
        // page 3 is the key bucket's first leaf; its first element's pos field is at 16 + 4
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(3 * 4096 + 8);
            assertEquals(2, f.read(), "page 3 is a leaf");
            f.seek(3 * 4096 + 16 + 4);
            f.write(new byte[] {(byte) 0xff, (byte) 0xff, 0, 0});
        }
        BboltException e = assertThrows(BboltException.class, () -> readAll(file, -1));
        assertTrue(e.getMessage().contains("runs past the end"), e.getMessage());
    }

    @Test
    void aBranchPointingAtItselfIsRefusedNotWalkedForever() throws Exception {
        Path file = write(sample(5_000, 0), 4096);
        long root;
        try (BboltReader r = BboltReader.open(file)) {
            root = r.meta().root();
        }
        // the root page is the root bucket's only leaf; the last bucket "key" has a branch page as its
        // root, written just before: find it and point its first child at itself
        long branch = root - 1;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(branch * 4096 + 8);
            assertEquals(1, f.read(), "page " + branch + " is a branch");
            f.seek(branch * 4096 + 16 + 8);
            byte[] self = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(branch).array();
            f.write(self);
        }
        BboltException e = assertThrows(BboltException.class, () -> readAll(file, -1));
        assertTrue(e.getMessage().contains("reached twice"), e.getMessage());
    }

    /** Any single damaged byte anywhere: either the file still reads or a BboltException says why; nothing else escapes. */
    @Test
    void randomDamageOnlyEverGivesABboltException() throws Exception {
        var data = sample(2_000, 2);
        Path clean = write(data, 4096);
        byte[] original = Files.readAllBytes(clean);
        Random random = new Random(14);
        Path damaged = dir.resolve("damaged");
        for (int round = 0; round < 300; round++) {
            byte[] copy = original.clone();
            for (int flips = 0; flips < 1 + random.nextInt(4); flips++) {
                // aim at page headers and element tables most of the time: that is where structure lives
                int page = random.nextInt(copy.length / 4096);
                int at = page * 4096 + (random.nextBoolean() ? random.nextInt(16 + 16 * 8) : random.nextInt(4096));
                copy[at] = (byte) random.nextInt(256);
            }
            Files.write(damaged, copy);
            try {
                readAll(damaged, -1);
            } catch (BboltException expected) {
                assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
            }
        }
    }

    @Test
    void notBboltAtAll() throws Exception {
        Path file = dir.resolve("text");
        Files.write(file, new byte[8192]);
        assertFalse(BboltReader.looksLikeBbolt(file));
        BboltException e = assertThrows(BboltException.class, () -> BboltReader.open(file));
        assertTrue(e.getMessage().contains("not a bbolt database"), e.getMessage());
    }

    private static void flipByte(Path file, long pos) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(pos);
            int v = f.read();
            f.seek(pos);
            f.write(v ^ 0x5a);
        }
    }
}
