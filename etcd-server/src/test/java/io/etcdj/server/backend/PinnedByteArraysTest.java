package io.etcdj.server.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys and values reach LMDB intact whatever their sizes and however often the collector runs
 * between copying them to native memory and LMDB reading them.
 */
class PinnedByteArraysTest {
    @TempDir
    Path dir;

    @Test
    void everyValueReadsBackAsWrittenAcrossSizesAndCollections() throws Exception {
        Random random = new Random(42);
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Backend b = Backend.open(dir.resolve("db"), 256L << 20)) {
            for (int batch = 0; batch < 20; batch++) {
                WriteTx tx = b.beginWrite();
                for (int i = 0; i < 200; i++) {
                    byte[] key = ("k/" + batch + "/" + i).getBytes();
                    // from empty to 64 KiB, so the thread's buffers grow while older ones are reused
                    byte[] value = new byte[random.nextInt(4) == 0 ? random.nextInt(65536) : random.nextInt(300)];
                    random.nextBytes(value);
                    tx.put(Bucket.KEY, key, value);
                    keys.add(key);
                    values.add(value);
                }
                tx.commit();
                System.gc();
            }
            ReadTx r = b.beginRead();
            try {
                for (int i = 0; i < keys.size(); i++) {
                    assertArrayEquals(values.get(i), r.get(Bucket.KEY, keys.get(i)), "value of " + new String(keys.get(i)));
                }
                int[] seen = {0};
                r.forEach(Bucket.KEY, "k/".getBytes(), "k0".getBytes(), (k, v) -> {
                    seen[0]++;
                    return true;
                });
                assertEquals(keys.size(), seen[0]);
            } finally {
                r.close();
            }
        }
    }
}
