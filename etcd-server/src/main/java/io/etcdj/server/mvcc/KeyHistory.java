package io.etcdj.server.mvcc;

import java.util.ArrayList;
import java.util.List;

/**
 * The revisions at which one key changed, oldest first. A key lives in generations: a put on a
 * missing key starts one (version 1, create revision = that put), later puts add versions, a
 * delete ends it with a tombstone. Values live in the backend under these revisions.
 */
final class KeyHistory {
    /** One change of the key: create revision and version describe the generation it belongs to. */
    record Change(Revision rev, long createRevision, long version, long lease, boolean tombstone) {
    }

    private final List<Change> changes = new ArrayList<>(2);

    void add(Change change) {
        changes.add(change);
    }

    /** The live change visible at {@code atRev}, or null when the key does not exist then. */
    Change visibleAt(long atRev) {
        int i = lastAtOrBefore(atRev);
        if (i < 0) {
            return null;
        }
        Change c = changes.get(i);
        return c.tombstone() ? null : c;
    }

    /** The latest change, alive or not; null if the history is empty. */
    Change latest() {
        return changes.isEmpty() ? null : changes.get(changes.size() - 1);
    }

    /**
     * Drops history older than {@code compactRev}, keeping the change visible at it (so reads at
     * compactRev still work). Dropped revisions go to {@code removed}. Returns true if nothing is
     * left, i.e. the key can leave the index.
     */
    boolean compact(long compactRev, List<Change> removed) {
        int keepFrom = lastAtOrBefore(compactRev);
        if (keepFrom < 0) {
            return changes.isEmpty();
        }
        if (changes.get(keepFrom).tombstone()) {
            keepFrom++;
        }
        if (keepFrom > 0) {
            List<Change> head = changes.subList(0, keepFrom);
            removed.addAll(head);
            head.clear();
        }
        return changes.isEmpty();
    }

    private int lastAtOrBefore(long atRev) {
        int lo = 0;
        int hi = changes.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (changes.get(mid).rev().main() <= atRev) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
