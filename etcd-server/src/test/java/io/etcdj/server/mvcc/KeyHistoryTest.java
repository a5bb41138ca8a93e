package io.etcdj.server.mvcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One key's history as etcd's keyIndex keeps it: what a read at a revision sees, and what a
 * compaction keeps (etcd's mvcc/key_index_test.go cases: put, put, delete, put; compaction keeps
 * the change visible at the compaction revision and drops a tombstone's whole generation).
 */
class KeyHistoryTest {

    private static KeyHistory.Change put(long main, long sub, long create, long version, long lease) {
        return new KeyHistory.Change(new Revision(main, sub), create, version, lease, false);
    }

    private static KeyHistory.Change delete(long main, long sub) {
        return new KeyHistory.Change(new Revision(main, sub), 0, 0, 0, true);
    }

    /** put at 2, put at 4 (sub 1, with a lease), delete at 6, put again at 8: two generations. */
    private static KeyHistory twoGenerations() {
        KeyHistory h = new KeyHistory();
        h.add(put(2, 0, 2, 1, 0));
        h.add(put(4, 1, 2, 2, 0x7fffffffffffL));
        h.add(delete(6, 0));
        h.add(put(8, 3, 8, 1, 0));
        return h;
    }

    @Test
    void aReadSeesTheLatestChangeAtItsRevisionAndNothingAfterADelete() {
        KeyHistory h = twoGenerations();
        assertNull(h.visibleAt(1), "before the first put");
        assertEquals(put(2, 0, 2, 1, 0), h.visibleAt(3));
        assertEquals(put(4, 1, 2, 2, 0x7fffffffffffL), h.visibleAt(5));
        assertNull(h.visibleAt(6), "deleted at 6");
        assertNull(h.visibleAt(7));
        assertEquals(put(8, 3, 8, 1, 0), h.visibleAt(8));
        assertEquals(put(8, 3, 8, 1, 0), h.visibleAt(Long.MAX_VALUE));
        assertTrue(h.aliveNow());
    }

    @Test
    void aDeletedKeyIsNotAliveAndAnEmptyHistoryNeither() {
        KeyHistory h = new KeyHistory();
        assertFalse(h.aliveNow());
        h.add(put(2, 0, 2, 1, 0));
        h.add(delete(3, 0));
        assertFalse(h.aliveNow());
        assertNull(h.visibleAt(3));
    }

    @Test
    void compactionKeepsTheChangeVisibleAtItsRevision() {
        KeyHistory h = twoGenerations();
        List<KeyHistory.Change> removed = new ArrayList<>();
        assertFalse(h.compact(5, removed));
        assertEquals(List.of(put(2, 0, 2, 1, 0)), removed);
        assertEquals(put(4, 1, 2, 2, 0x7fffffffffffL), h.visibleAt(5), "a read at the compaction revision still works");
        assertEquals(put(8, 3, 8, 1, 0), h.visibleAt(9));
    }

    @Test
    void compactionAtATombstoneDropsItsWholeGeneration() {
        KeyHistory h = twoGenerations();
        List<KeyHistory.Change> removed = new ArrayList<>();
        assertFalse(h.compact(7, removed));
        assertEquals(List.of(put(2, 0, 2, 1, 0), put(4, 1, 2, 2, 0x7fffffffffffL), delete(6, 0)), removed);
        assertNull(h.visibleAt(7));
        assertEquals(put(8, 3, 8, 1, 0), h.visibleAt(8));
    }

    @Test
    void aKeyWhoseLastChangeIsACompactedDeleteLeavesTheIndex() {
        KeyHistory h = new KeyHistory();
        h.add(put(2, 0, 2, 1, 0));
        h.add(delete(3, 0));
        List<KeyHistory.Change> removed = new ArrayList<>();
        assertTrue(h.compact(3, removed));
        assertEquals(2, removed.size());
        assertFalse(h.aliveNow());
    }

    @Test
    void compactionBeforeTheFirstChangeKeepsEverything() {
        KeyHistory h = twoGenerations();
        List<KeyHistory.Change> removed = new ArrayList<>();
        assertFalse(h.compact(1, removed));
        assertTrue(removed.isEmpty());
        assertEquals(put(2, 0, 2, 1, 0), h.visibleAt(2));
    }

    @Test
    void aLongHistoryKeepsEveryChangeAndCanGrowAgainAfterCompaction() {
        KeyHistory h = new KeyHistory();
        for (long rev = 1; rev <= 1000; rev++) {
            h.add(put(rev, rev % 7, 1, rev, rev % 3));
        }
        for (long rev = 1; rev <= 1000; rev++) {
            assertEquals(put(rev, rev % 7, 1, rev, rev % 3), h.visibleAt(rev));
        }
        List<KeyHistory.Change> removed = new ArrayList<>();
        h.compact(1000, removed);
        assertEquals(999, removed.size());
        h.add(put(1001, 0, 1, 1001, 0));
        h.add(put(1002, 0, 1, 1002, 0));
        assertEquals(put(1000, 1000 % 7, 1, 1000, 1000 % 3), h.visibleAt(1000));
        assertEquals(put(1002, 0, 1, 1002, 0), h.visibleAt(1002));
    }
}
