package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyMakerTest {

    @Test
    void keysHaveTheRequestedSizeAndDistinctNumbersGiveDistinctKeys() {
        KeyMaker keys = new KeyMaker(8, 100_000, true);
        Set<ByteString> seen = new HashSet<>();
        for (long n = 0; n < 100_000; n++) {
            ByteString k = keys.key(n);
            assertEquals(8, k.size());
            assertTrue(seen.add(k), "duplicate key for " + n);
        }
    }

    @Test
    void sequentialKeysWrapAroundTheKeySpace() {
        KeyMaker keys = new KeyMaker(8, 3, true);
        assertEquals(0, keys.keyNumber(0, null));
        assertEquals(2, keys.keyNumber(2, null));
        assertEquals(0, keys.keyNumber(3, null));
        assertEquals(1, keys.keyNumber(7, null));
    }

    @Test
    void randomKeysStayInTheKeySpaceAndDefaultSpaceIsOneKey() {
        SplittableRandom random = new SplittableRandom(7);
        KeyMaker keys = new KeyMaker(8, 10, false);
        Set<Long> numbers = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            long n = keys.keyNumber(i, random);
            assertTrue(n >= 0 && n < 10, "out of range: " + n);
            numbers.add(n);
        }
        assertEquals(10, numbers.size());
        KeyMaker single = new KeyMaker(8, 1, false);
        assertEquals(single.key(single.keyNumber(5, random)), single.key(single.keyNumber(99, random)));
    }

    @Test
    void valuesAreRandomBytesOfTheRequestedSize() {
        SplittableRandom random = new SplittableRandom(1);
        ByteString a = KeyMaker.randomValue(256, random);
        assertEquals(256, a.size());
        assertNotEquals(a, KeyMaker.randomValue(256, random));
        assertEquals(0, KeyMaker.randomValue(0, random).size());
    }

    @Test
    void rejectsBadSizes() {
        assertThrows(BenchmarkException.class, () -> new KeyMaker(0, 1, false));
        assertThrows(BenchmarkException.class, () -> new KeyMaker(8, 0, false));
        assertThrows(BenchmarkException.class, () -> KeyMaker.randomValue(-1, new SplittableRandom()));
    }
}
