package io.etcdj.server.mvcc;

import java.util.Arrays;
import java.util.List;

/**
 * The revisions at which one key changed, oldest first. A key lives in generations: a put on a
 * missing key starts one (version 1, create revision = that put), later puts add versions, a
 * delete ends it with a tombstone. Values live in the backend under these revisions.
 *
 * <p>Every key of the store has one of these in memory for as long as the member runs, so the
 * changes are packed into one {@code long[]} ({@link #STRIDE} longs each) and a {@link Change} is
 * made only when asked for: a key with one change costs 80 bytes here instead of the 145 of a list
 * of records (measured with a million keys: docs/benchmarks.md, the ninth round).
 */
final class KeyHistory {
    /** One change of the key: create revision and version describe the generation it belongs to. */
    record Change(Revision rev, long createRevision, long version, long lease, boolean tombstone) {
    }

    /** main revision, sub revision shifted left once with the tombstone flag in bit 0, create revision, version, lease. */
    private static final int STRIDE = 5;
    private static final int MAIN = 0;
    private static final int SUB_AND_TOMBSTONE = 1;
    private static final int CREATE = 2;
    private static final int VERSION = 3;
    private static final int LEASE = 4;

    private long[] packed = new long[STRIDE];
    private int size;

    void add(Change change) {
        if ((size + 1) * STRIDE > packed.length) {
            packed = Arrays.copyOf(packed, packed.length * 2);
        }
        int at = size * STRIDE;
        packed[at + MAIN] = change.rev().main();
        packed[at + SUB_AND_TOMBSTONE] = change.rev().sub() << 1 | (change.tombstone() ? 1 : 0);
        packed[at + CREATE] = change.createRevision();
        packed[at + VERSION] = change.version();
        packed[at + LEASE] = change.lease();
        size++;
    }

    /** The live change visible at {@code atRev}, or null when the key does not exist then. */
    Change visibleAt(long atRev) {
        int i = lastAtOrBefore(atRev);
        if (i < 0 || tombstoneAt(i)) {
            return null;
        }
        return changeAt(i);
    }

    /** Whether the latest change left the key alive (false for an empty history). */
    boolean aliveNow() {
        return size > 0 && !tombstoneAt(size - 1);
    }

    /**
     * Drops history older than {@code compactRev}, keeping the change visible at it (so reads at
     * compactRev still work). Dropped revisions go to {@code removed}. Returns true if nothing is
     * left, i.e. the key can leave the index.
     */
    boolean compact(long compactRev, List<Change> removed) {
        int keepFrom = lastAtOrBefore(compactRev);
        if (keepFrom < 0) {
            return size == 0;
        }
        if (tombstoneAt(keepFrom)) {
            keepFrom++;
        }
        if (keepFrom > 0) {
            for (int i = 0; i < keepFrom; i++) {
                removed.add(changeAt(i));
            }
            size -= keepFrom;
            // a compacted key usually keeps one change: give back what its longer history needed
            long[] kept = new long[Math.max(1, size) * STRIDE];
            System.arraycopy(packed, keepFrom * STRIDE, kept, 0, size * STRIDE);
            packed = kept;
        }
        return size == 0;
    }

    private boolean tombstoneAt(int i) {
        return (packed[i * STRIDE + SUB_AND_TOMBSTONE] & 1) != 0;
    }

    private Change changeAt(int i) {
        int at = i * STRIDE;
        long subAndTombstone = packed[at + SUB_AND_TOMBSTONE];
        return new Change(new Revision(packed[at + MAIN], subAndTombstone >>> 1), packed[at + CREATE],
                packed[at + VERSION], packed[at + LEASE], (subAndTombstone & 1) != 0);
    }

    private int lastAtOrBefore(long atRev) {
        int lo = 0;
        int hi = size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (packed[mid * STRIDE + MAIN] <= atRev) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
