package io.etcdj.server.mvcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The index's B+tree against a {@link TreeMap} with etcd's key order (unsigned bytes), under seeded
 * random inserts, lookups, ranges and removals: the same entries in the same order, whatever the
 * shape of the tree (keys written in order, at random, removed in bulk and written again).
 */
class KeyTreeTest {

    private final TreeMap<byte[], KeyHistory> model = new TreeMap<>(Arrays::compareUnsigned);
    private final KeyTree tree = new KeyTree();

    private static byte[] key(Random random) {
        // short keys from a small alphabet with high bytes: many shared prefixes, unsigned order matters
        byte[] k = new byte[1 + random.nextInt(4)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (0x7e + random.nextInt(5));
        }
        return k;
    }

    private void put(byte[] k) {
        KeyHistory h = tree.getOrCreate(k);
        KeyHistory expected = model.computeIfAbsent(k, x -> h);
        assertSame(expected, h, "the same key gives the same history");
    }

    private List<String> entries(Iterable<Map.Entry<byte[], KeyHistory>> it) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<byte[], KeyHistory> e : it) {
            out.add(Arrays.toString(e.getKey()) + "=" + System.identityHashCode(e.getValue()));
        }
        return out;
    }

    private void checkRange(byte[] from, byte[] to) {
        Map<byte[], KeyHistory> expected = to == null ? model.tailMap(from, true)
                : (Arrays.compareUnsigned(from, to) >= 0 ? Map.of() : model.subMap(from, true, to, false));
        assertEquals(entries(expected.entrySet()), entries(tree.range(from, to)),
                () -> "range " + Arrays.toString(from) + " .. " + Arrays.toString(to));
    }

    private void checkAll(Random random) {
        assertEquals(model.size(), tree.size());
        List<KeyHistory> values = new ArrayList<>();
        tree.values().forEach(values::add);
        assertEquals(new ArrayList<>(model.values()), values);
        for (int i = 0; i < 20; i++) {
            byte[] k = key(random);
            assertSame(model.get(k), tree.get(k));
            checkRange(k, random.nextBoolean() ? null : key(random));
        }
        checkRange(new byte[] {0}, null);
    }

    @Test
    void randomInsertsLookupsRangesAndRemovalsMatchATreeMap() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            model.clear();
            tree.clear();
            for (int round = 0; round < 6; round++) {
                int inserts = random.nextInt(3000);
                for (int i = 0; i < inserts; i++) {
                    put(key(random));
                }
                checkAll(random);
                // remove a random share of the keys (all of them, sometimes)
                double share = random.nextInt(4) == 0 ? 1.0 : random.nextDouble();
                Set<KeyHistory> gone = new HashSet<>();
                for (KeyHistory h : model.values()) {
                    if (random.nextDouble() < share) {
                        gone.add(h);
                    }
                }
                tree.removeIf(gone::contains);
                model.values().removeIf(gone::contains);
                checkAll(random);
            }
        }
    }

    @Test
    void keysWrittenInOrderAndInReverseOrder() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            keys.add(String.format("key/%08d", i).getBytes());
        }
        keys.forEach(this::put);
        for (int i = keys.size() - 1; i >= 0; i--) {
            put(("rev/" + i).getBytes());
        }
        Random random = new Random(7);
        checkAll(random);
        checkRange("key/00050000".getBytes(), "key/00050100".getBytes());
        assertEquals(100, entries(tree.range("key/00050000".getBytes(), "key/00050100".getBytes())).size());
        assertNull(tree.get("key/".getBytes()));
        tree.removeIf(h -> true);
        model.clear();
        assertEquals(0, tree.size());
        assertEquals(List.of(), entries(tree.range(new byte[] {0}, null)));
        put("again".getBytes());
        checkAll(random);
    }
}
