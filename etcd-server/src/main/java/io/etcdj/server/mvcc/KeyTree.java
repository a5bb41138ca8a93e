package io.etcdj.server.mvcc;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The key index's ordered map from key (unsigned bytes) to its history: a B+tree whose leaves hold
 * up to {@link #MAX} keys and histories in arrays and link to the next leaf, as etcd keeps its
 * index in a B-tree. Every key of the store has an entry for as long as the member runs, and a
 * tree map's entry object costs 40 bytes a key; a leaf slot costs 8 (docs/benchmarks.md, the ninth
 * round). Not thread-safe: the store guards it.
 *
 * <p>A separator of an inner node is a lower bound of its child's keys (the child's first key when
 * it was split off); removing keys keeps that true, so {@link #removeIf} only filters leaves, and
 * rebuilds the tree when they are mostly empty.
 */
final class KeyTree {
    /** Keys per leaf and children per inner node. */
    private static final int MAX = 64;

    /**
     * Up to {@link #MAX} keys with a slot each: a leaf's slots are histories; an inner node's are
     * its children, and its key i bounds child i's keys from below (key 0 is unused).
     */
    private abstract static sealed class Node permits Leaf, Inner {
        final byte[][] keys = new byte[MAX][];
        final Object[] slots = new Object[MAX];
        int n;
    }

    private static final class Leaf extends Node {
        Leaf next;

        KeyHistory value(int i) {
            return (KeyHistory) slots[i];
        }
    }

    private static final class Inner extends Node {
        Node child(int i) {
            return (Node) slots[i];
        }
    }

    private Node root = new Leaf();
    private Leaf first = (Leaf) root;
    private int size;
    private int leaves = 1;
    /** The first key of the node the last {@link #insert} split off. */
    private byte[] splitKey;

    int size() {
        return size;
    }

    KeyHistory get(byte[] key) {
        Leaf leaf = leafFor(key);
        int i = search(leaf.keys, leaf.n, key);
        return i >= 0 ? leaf.value(i) : null;
    }

    KeyHistory getOrCreate(byte[] key) {
        KeyHistory found = get(key);
        if (found != null) {
            return found;
        }
        KeyHistory created = new KeyHistory();
        Node right = insert(root, key, created);
        if (right != null) {
            Inner top = new Inner();
            top.slots[0] = root;
            top.slots[1] = right;
            top.keys[1] = splitKey;
            top.n = 2;
            root = top;
        }
        size++;
        return created;
    }

    /** The entries from {@code from} (inclusive) to {@code to} (exclusive; null: to the last key), in key order. */
    Iterable<Map.Entry<byte[], KeyHistory>> range(byte[] from, byte[] to) {
        return () -> {
            Leaf leaf = leafFor(from);
            return new Walk<>(leaf, startIn(leaf, from), to,
                    (l, i) -> new AbstractMap.SimpleImmutableEntry<>(l.keys[i], l.value(i)));
        };
    }

    /** Every history, in key order. */
    Iterable<KeyHistory> values() {
        return () -> new Walk<>(first, 0, null, Leaf::value);
    }

    /** Reads leaf slots in key order, from a leaf and slot on, along the leaves' links, until {@code to}. */
    private static final class Walk<T> implements Iterator<T> {
        private final byte[] to;
        private final BiFunction<Leaf, Integer, T> read;
        private Leaf leaf;
        private int at;

        Walk(Leaf leaf, int at, byte[] to, BiFunction<Leaf, Integer, T> read) {
            this.leaf = leaf;
            this.at = at;
            this.to = to;
            this.read = read;
        }

        @Override
        public boolean hasNext() {
            while (leaf != null && at >= leaf.n) {
                leaf = leaf.next;
                at = 0;
            }
            return leaf != null && (to == null || Arrays.compareUnsigned(leaf.keys[at], to) < 0);
        }

        @Override
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return read.apply(leaf, at++);
        }
    }

    /** Removes the keys whose history {@code remove} accepts (called once per key, in key order). */
    void removeIf(Predicate<KeyHistory> remove) {
        for (Leaf leaf = first; leaf != null; leaf = leaf.next) {
            int kept = 0;
            for (int i = 0; i < leaf.n; i++) {
                if (remove.test(leaf.value(i))) {
                    size--;
                } else {
                    leaf.keys[kept] = leaf.keys[i];
                    leaf.slots[kept] = leaf.slots[i];
                    kept++;
                }
            }
            Arrays.fill(leaf.keys, kept, leaf.n, null);
            Arrays.fill(leaf.slots, kept, leaf.n, null);
            leaf.n = kept;
        }
        if (leaves > 1 && size < leaves * MAX / 4) {
            rebuild();
        }
    }

    void clear() {
        root = new Leaf();
        first = (Leaf) root;
        size = 0;
        leaves = 1;
    }

    /** Packs the entries into full leaves again, after removals left them mostly empty. */
    private void rebuild() {
        List<Node> level = new ArrayList<>();
        List<byte[]> lowest = new ArrayList<>();
        Leaf last = null;
        for (Leaf leaf = first; leaf != null; leaf = leaf.next) {
            for (int i = 0; i < leaf.n; i++) {
                if (last == null || last.n == MAX) {
                    Leaf fresh = new Leaf();
                    if (last != null) {
                        last.next = fresh;
                    }
                    level.add(fresh);
                    lowest.add(leaf.keys[i]);
                    last = fresh;
                }
                last.keys[last.n] = leaf.keys[i];
                last.slots[last.n] = leaf.slots[i];
                last.n++;
            }
        }
        if (level.isEmpty()) {
            clear();
            return;
        }
        first = (Leaf) level.get(0);
        leaves = level.size();
        while (level.size() > 1) {
            List<Node> parents = new ArrayList<>();
            List<byte[]> parentLowest = new ArrayList<>();
            for (int i = 0; i < level.size(); i += MAX) {
                Inner parent = new Inner();
                for (int j = i; j < Math.min(i + MAX, level.size()); j++) {
                    parent.slots[parent.n] = level.get(j);
                    parent.keys[parent.n] = parent.n == 0 ? null : lowest.get(j);
                    parent.n++;
                }
                parents.add(parent);
                parentLowest.add(lowest.get(i));
            }
            level = parents;
            lowest = parentLowest;
        }
        root = level.get(0);
    }

    /**
     * Inserts a key known to be absent under {@code node}; returns the node split off to its right
     * (its first key in {@link #splitKey}), or null.
     */
    private Node insert(Node node, byte[] key, KeyHistory value) {
        if (node instanceof Leaf leaf) {
            int pos = -search(leaf.keys, leaf.n, key) - 1;
            if (leaf.n < MAX) {
                putAt(leaf, pos, key, value);
                return null;
            }
            Leaf right = new Leaf();
            split(leaf, right, pos, key, value);
            right.next = leaf.next;
            leaf.next = right;
            leaves++;
            splitKey = right.keys[0];
            return right;
        }
        Inner inner = (Inner) node;
        int child = childFor(inner, key);
        Node grown = insert(inner.child(child), key, value);
        if (grown == null) {
            return null;
        }
        if (inner.n < MAX) {
            putAt(inner, child + 1, splitKey, grown);
            return null;
        }
        Inner right = new Inner();
        split(inner, right, child + 1, splitKey, grown);
        splitKey = right.keys[0];
        right.keys[0] = null;
        return right;
    }

    /**
     * Moves the upper entries of the full {@code node} to the empty {@code right} and puts the new
     * entry at {@code pos} in whichever of them it belongs. When the new entry goes at the node's
     * end, the node keeps all its entries and the new one starts {@code right}: keys written in order
     * (the common case: sequential names) fill their leaves instead of leaving them half-empty.
     */
    private static void split(Node node, Node right, int pos, byte[] key, Object slot) {
        int keep = pos == MAX ? MAX : MAX / 2;
        int moved = MAX - keep;
        System.arraycopy(node.keys, keep, right.keys, 0, moved);
        System.arraycopy(node.slots, keep, right.slots, 0, moved);
        Arrays.fill(node.keys, keep, MAX, null);
        Arrays.fill(node.slots, keep, MAX, null);
        node.n = keep;
        right.n = moved;
        if (pos <= keep && keep < MAX) {
            putAt(node, pos, key, slot);
        } else {
            putAt(right, pos - keep, key, slot);
        }
    }

    private static void putAt(Node node, int pos, byte[] key, Object slot) {
        System.arraycopy(node.keys, pos, node.keys, pos + 1, node.n - pos);
        System.arraycopy(node.slots, pos, node.slots, pos + 1, node.n - pos);
        node.keys[pos] = key;
        node.slots[pos] = slot;
        node.n++;
    }

    private Leaf leafFor(byte[] key) {
        Node node = root;
        while (node instanceof Inner inner) {
            node = inner.child(childFor(inner, key));
        }
        return (Leaf) node;
    }

    /** The last child whose separator is at or below {@code key}; the first child if none is. */
    private static int childFor(Inner inner, byte[] key) {
        int lo = 1;
        int hi = inner.n - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(inner.keys[mid], key) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The key's index among the first {@code n}, or {@code -(insertion point) - 1}. */
    private static int search(byte[][] keys, int n, byte[] key) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Arrays.compareUnsigned(keys[mid], key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo - 1;
    }

    private static int startIn(Leaf leaf, byte[] from) {
        int i = search(leaf.keys, leaf.n, from);
        return i >= 0 ? i : -i - 1;
    }
}
