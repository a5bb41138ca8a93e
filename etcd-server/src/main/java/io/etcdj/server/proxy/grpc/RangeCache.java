package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The proxy's cache of range responses, as etcd's grpcproxy/cache: keyed by the whole request
 * (serializable), least recently used entries dropped beyond a bound, and every entry whose range
 * overlaps a written key or range dropped when that write goes through the proxy. Requests for a
 * revision below the last compaction seen are answered as compacted.
 */
final class RangeCache {
    static final int MAX_ENTRIES = 2048;

    private final LinkedHashMap<ByteString, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long compactedRevision;

    private record Entry(ByteString key, ByteString end, RangeResponse response) {
    }

    /** What a cache lookup found. */
    enum Outcome { HIT, MISS, COMPACTED }

    record Lookup(Outcome outcome, RangeResponse response) {
    }

    synchronized Lookup get(RangeRequest serializable) {
        if (serializable.getRevision() > 0 && serializable.getRevision() < compactedRevision) {
            return new Lookup(Outcome.COMPACTED, null);
        }
        Entry e = entries.get(serializable.toByteString());
        return e == null ? new Lookup(Outcome.MISS, null) : new Lookup(Outcome.HIT, e.response());
    }

    synchronized void add(RangeRequest serializable, RangeResponse response) {
        entries.put(serializable.toByteString(), new Entry(serializable.getKey(), serializable.getRangeEnd(), response));
        if (entries.size() > MAX_ENTRIES) {
            Iterator<ByteString> eldest = entries.keySet().iterator();
            eldest.next();
            eldest.remove();
        }
    }

    /** Drops every cached range that overlaps [key, end) (just key when end is empty). */
    synchronized void invalidate(ByteString key, ByteString end) {
        entries.values().removeIf(e -> overlaps(e.key(), e.end(), key, end));
    }

    synchronized void compact(long revision) {
        compactedRevision = Math.max(compactedRevision, revision);
        entries.values().removeIf(e -> true);
    }

    synchronized int size() {
        return entries.size();
    }

    private static boolean overlaps(ByteString aKey, ByteString aEnd, ByteString bKey, ByteString bEnd) {
        return lessThanEnd(aKey, bEnd, bKey) && lessThanEnd(bKey, aEnd, aKey);
    }

    /** Whether {@code key} lies before the end of the range starting at {@code start}. */
    private static boolean lessThanEnd(ByteString key, ByteString end, ByteString start) {
        if (end.isEmpty()) {
            // a single key: the range is [start, start]
            return compare(key, start) <= 0;
        }
        if (end.size() == 1 && end.byteAt(0) == 0) {
            return true;
        }
        return compare(key, end) < 0;
    }

    private static int compare(ByteString a, ByteString b) {
        return ByteString.unsignedLexicographicalComparator().compare(a, b);
    }
}
