package io.etcdj.server.mvcc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The HashKV of the history each recent compaction removed or kept, computed while it compacted
 * (etcd's hash storage): the revisions after the previous compaction up to the new one, before
 * the compaction dropped any. Every member compacts at the same revisions, so the leader's
 * compaction hash check compares these with its followers' without hashing the store again.
 * Only the newest {@value #MAX} are kept, as etcd; thread-safe.
 */
public final class CompactionHashes {
    static final int MAX = 10;

    /** A hash of the key bucket over (compactRevision, revision] plus what was kept before it. */
    public record Entry(long hash, long compactRevision, long revision) {
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void add(Entry e) {
        entries.removeIf(x -> x.revision() == e.revision());
        entries.add(e);
        entries.sort((a, b) -> Long.compare(a.revision(), b.revision()));
        while (entries.size() > MAX) {
            entries.remove(0);
        }
    }

    /** The hash recorded at compaction revision {@code revision}, or null. */
    public synchronized Entry at(long revision) {
        for (Entry e : entries) {
            if (e.revision() == revision) {
                return e;
            }
        }
        return null;
    }

    /** The recorded hashes, newest first. */
    public synchronized List<Entry> newestFirst() {
        List<Entry> out = new ArrayList<>(entries);
        Collections.reverse(out);
        return out;
    }

    synchronized void clear() {
        entries.clear();
    }
}
