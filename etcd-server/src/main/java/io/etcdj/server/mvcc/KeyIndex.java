package io.etcdj.server.mvcc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * In-memory index from key to its {@link KeyHistory}, ordered as etcd orders keys (unsigned
 * bytes). Rebuilt from the backend on start. Not thread-safe: the store guards it.
 */
final class KeyIndex {
    private final KeyTree keys = new KeyTree();

    KeyHistory get(byte[] key) {
        return keys.get(key);
    }

    KeyHistory getOrCreate(byte[] key) {
        return keys.getOrCreate(key);
    }

    /**
     * The histories of keys in the interval: {@code end == null} is the single key, an end of
     * {@code {0}} means "every key from {@code key} on", otherwise [key, end).
     */
    Iterable<Map.Entry<byte[], KeyHistory>> range(byte[] key, byte[] end) {
        if (end == null) {
            KeyHistory h = keys.get(key);
            return h == null ? List.of() : List.of(Map.entry(key, h));
        }
        if (isOpenEnd(end)) {
            return keys.range(key, null);
        }
        return Arrays.compareUnsigned(key, end) >= 0 ? List.of() : keys.range(key, end);
    }

    static boolean isOpenEnd(byte[] end) {
        return end.length == 1 && end[0] == 0;
    }

    /** Compacts every history at {@code compactRev}; returns the changes whose values can go. */
    List<KeyHistory.Change> compact(long compactRev) {
        List<KeyHistory.Change> removed = new ArrayList<>();
        keys.removeIf(h -> h.compact(compactRev, removed));
        return removed;
    }

    /** The revision each key shows at {@code at}: its latest change then, unless that deleted it. */
    Set<Revision> keptAt(long at) {
        Set<Revision> keep = new HashSet<>();
        for (KeyHistory h : keys.values()) {
            KeyHistory.Change c = h.visibleAt(at);
            if (c != null) {
                keep.add(c.rev());
            }
        }
        return keep;
    }

    void clear() {
        keys.clear();
    }

    long liveKeys() {
        long n = 0;
        for (KeyHistory h : keys.values()) {
            if (h.aliveNow()) {
                n++;
            }
        }
        return n;
    }

    int size() {
        return keys.size();
    }
}
