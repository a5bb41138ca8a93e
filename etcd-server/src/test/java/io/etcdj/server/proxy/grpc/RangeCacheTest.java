package io.etcdj.server.proxy.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import org.junit.jupiter.api.Test;

/** The range cache: hits by whole request, invalidation by overlapping writes, compaction. */
class RangeCacheTest {
    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    private static RangeRequest range(String key, String end) {
        return RangeRequest.newBuilder().setKey(b(key)).setRangeEnd(b(end)).setSerializable(true).build();
    }

    private static RangeResponse resp(long rev) {
        return RangeResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setRevision(rev)).build();
    }

    @Test
    void aWriteDropsOnlyTheRangesItTouches() {
        RangeCache c = new RangeCache();
        c.add(range("a", ""), resp(1));
        c.add(range("b", "d"), resp(1));
        c.add(range("x", "\0"), resp(1));
        c.invalidate(b("c"), ByteString.EMPTY);
        assertEquals(RangeCache.Outcome.HIT, c.get(range("a", "")).outcome());
        assertEquals(RangeCache.Outcome.MISS, c.get(range("b", "d")).outcome());
        assertEquals(RangeCache.Outcome.HIT, c.get(range("x", "\0")).outcome());
        c.invalidate(b("y"), ByteString.EMPTY);
        assertEquals(RangeCache.Outcome.MISS, c.get(range("x", "\0")).outcome());
        c.invalidate(b("0"), b("b"));
        assertEquals(RangeCache.Outcome.MISS, c.get(range("a", "")).outcome());
        assertEquals(0, c.size());
    }

    @Test
    void theRequestAsAWholeIsTheKey() {
        RangeCache c = new RangeCache();
        c.add(range("a", ""), resp(7));
        assertEquals(7, c.get(range("a", "")).response().getHeader().getRevision());
        assertEquals(RangeCache.Outcome.MISS, c.get(range("a", "").toBuilder().setLimit(1).build()).outcome());
    }

    @Test
    void revisionsBelowTheCompactionAreCompacted() {
        RangeCache c = new RangeCache();
        c.add(range("a", ""), resp(7));
        c.compact(5);
        assertEquals(RangeCache.Outcome.COMPACTED, c.get(range("a", "").toBuilder().setRevision(4).build()).outcome());
        assertEquals(RangeCache.Outcome.MISS, c.get(range("a", "")).outcome());
    }

    @Test
    void theOldestEntryGoesBeyondTheBound() {
        RangeCache c = new RangeCache();
        for (int i = 0; i <= RangeCache.MAX_ENTRIES; i++) {
            c.add(range("k" + i, ""), resp(i));
        }
        assertEquals(RangeCache.MAX_ENTRIES, c.size());
        assertEquals(RangeCache.Outcome.MISS, c.get(range("k0", "")).outcome());
    }
}
