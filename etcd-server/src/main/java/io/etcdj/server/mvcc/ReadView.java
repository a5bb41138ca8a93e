package io.etcdj.server.mvcc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.error.EtcdError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.zip.CRC32C;

/** A consistent view of the store at one revision, with etcd's Range semantics. */
public class ReadView implements AutoCloseable {
    final MvccStore store;
    final ReadTx tx;
    private final long viewRev;
    private final Lock lock;
    private boolean closed;

    ReadView(MvccStore store, ReadTx tx, long viewRev, Lock lock) {
        this.store = store;
        this.tx = tx;
        this.viewRev = viewRev;
        this.lock = lock;
    }

    /** The backend transaction under this view, for other state machines' buckets. */
    public ReadTx backendRead() {
        return tx;
    }

    /** Visits every live key with its lease at the view's revision (to re-attach leases on start). */
    public void forEachLeased(BiConsumer<ByteString, Long> visitor) {
        for (Map.Entry<byte[], KeyHistory> e : store.index.range(new byte[] {0}, new byte[] {0})) {
            KeyHistory.Change c = e.getValue().visibleAt(readRevision());
            if (c != null && c.lease() != 0) {
                visitor.accept(ByteString.copyFrom(e.getKey()), c.lease());
            }
        }
    }

    /** The revision reads see when they do not ask for one. */
    public long revision() {
        return readRevision();
    }

    long readRevision() {
        return viewRev;
    }

    public long compactRevision() {
        return store.compactRev;
    }

    /** A key and the change visible for it at the read revision. */
    record Hit(byte[] key, KeyHistory.Change change) {
    }

    /** Serves a RangeRequest with every option etcd has; the header is the caller's. */
    public RangeResponse.Builder range(RangeRequest r) {
        return rangeAt(r, readRevision());
    }

    RangeResponse.Builder rangeAt(RangeRequest r, long current) {
        long rev = checkRevision(r.getRevision(), current);
        RangeRequest.SortOrder order = r.getSortOrder();
        RangeRequest.SortTarget target = r.getSortTarget();
        if (order == RangeRequest.SortOrder.UNRECOGNIZED || target == RangeRequest.SortTarget.UNRECOGNIZED) {
            throw EtcdError.INVALID_SORT_OPTION.exception();
        }
        Predicate<KeyHistory.Change> filter = revisionFilter(r);
        long limit = r.getLimit();
        // As etcd: only an explicit sort order (or a revision filter) makes the whole range load
        // before the limit applies; with order NONE the limit applies to keys in key order, and a
        // non-KEY target then sorts just those, ascending.
        long fetch = (order != RangeRequest.SortOrder.NONE || filter != null || limit <= 0) ? Long.MAX_VALUE : limit + 1;
        if (order == RangeRequest.SortOrder.NONE && target != RangeRequest.SortTarget.KEY) {
            order = RangeRequest.SortOrder.ASCEND;
        }
        boolean keyOrder = order == RangeRequest.SortOrder.NONE
                || (order == RangeRequest.SortOrder.ASCEND && target == RangeRequest.SortTarget.KEY);

        byte[] key = r.getKey().toByteArray();
        byte[] end = r.getRangeEnd().isEmpty() ? null : r.getRangeEnd().toByteArray();
        long count = 0;
        List<Hit> hits = new ArrayList<>();
        for (Map.Entry<byte[], KeyHistory> e : store.index.range(key, end)) {
            KeyHistory.Change c = e.getValue().visibleAt(rev);
            if (c == null) {
                continue;
            }
            count++;
            if (r.getCountOnly() || hits.size() >= fetch) {
                continue;
            }
            if (filter == null || filter.test(c)) {
                hits.add(new Hit(e.getKey(), c));
            }
        }
        RangeResponse.Builder resp = RangeResponse.newBuilder().setCount(count);
        if (r.getCountOnly()) {
            return resp;
        }
        if (!keyOrder) {
            sort(hits, order, target);
        }
        if (limit > 0 && hits.size() > limit) {
            hits = hits.subList(0, (int) limit);
            resp.setMore(true);
        }
        for (Hit h : hits) {
            resp.addKvs(r.getKeysOnly() ? keyOnly(h) : valueAt(h.change().rev(), false));
        }
        return resp;
    }

    private long checkRevision(long requested, long current) {
        if (requested <= 0) {
            return current;
        }
        if (requested > current) {
            throw EtcdError.FUTURE_REV.exception();
        }
        if (requested < store.compactRev) {
            throw EtcdError.COMPACTED.exception();
        }
        return requested;
    }

    private static Predicate<KeyHistory.Change> revisionFilter(RangeRequest r) {
        long minMod = r.getMinModRevision();
        long maxMod = r.getMaxModRevision();
        long minCreate = r.getMinCreateRevision();
        long maxCreate = r.getMaxCreateRevision();
        if (minMod == 0 && maxMod == 0 && minCreate == 0 && maxCreate == 0) {
            return null;
        }
        return c -> (minMod == 0 || c.rev().main() >= minMod)
                && (maxMod == 0 || c.rev().main() <= maxMod)
                && (minCreate == 0 || c.createRevision() >= minCreate)
                && (maxCreate == 0 || c.createRevision() <= maxCreate);
    }

    private void sort(List<Hit> hits, RangeRequest.SortOrder order, RangeRequest.SortTarget target) {
        Comparator<Hit> cmp = switch (target) {
            case VERSION -> Comparator.comparingLong(h -> h.change().version());
            case CREATE -> Comparator.comparingLong(h -> h.change().createRevision());
            case MOD -> Comparator.comparingLong(h -> h.change().rev().main());
            case VALUE -> valueComparator(hits);
            default -> (a, b) -> Arrays.compareUnsigned(a.key(), b.key());
        };
        hits.sort(order == RangeRequest.SortOrder.DESCEND ? cmp.reversed() : cmp);
    }

    private Comparator<Hit> valueComparator(List<Hit> hits) {
        Map<Hit, byte[]> values = new IdentityHashMap<>();
        for (Hit h : hits) {
            values.put(h, valueAt(h.change().rev(), false).getValue().toByteArray());
        }
        return (a, b) -> Arrays.compareUnsigned(values.get(a), values.get(b));
    }

    private static KeyValue keyOnly(Hit h) {
        KeyHistory.Change c = h.change();
        return KeyValue.newBuilder()
                .setKey(ByteString.copyFrom(h.key()))
                .setCreateRevision(c.createRevision())
                .setModRevision(c.rev().main())
                .setVersion(c.version())
                .setLease(c.lease())
                .build();
    }

    /** The stored key-value at a revision (a tombstone reads as key only). */
    public KeyValue valueAt(Revision rev, boolean tombstone) {
        byte[] v = tx.get(Bucket.KEY, rev.toBytes(tombstone));
        if (v == null) {
            throw new IllegalStateException("key index points at a missing revision " + rev);
        }
        return MvccStore.parse(v);
    }

    /** The previous value for a watcher's prev_kv, or null if it was compacted away. */
    public KeyValue previous(Revision rev) {
        byte[] v = tx.get(Bucket.KEY, rev.toBytes(false));
        return v == null ? null : MvccStore.parse(v);
    }

    /**
     * Visits the events with revisions in [fromRev, toRev] in order (for watchers catching up).
     * The visitor returns false to stop.
     */
    public void history(long fromRev, long toRev, Predicate<ChangeEvent> visitor) {
        tx.forEach(Bucket.KEY, Revision.startKey(fromRev), Revision.startKey(toRev + 1), (k, v) -> {
            KeyValue kv = MvccStore.parse(v);
            boolean tomb = Revision.isTombstone(k);
            Revision rev = Revision.fromBytes(k);
            KeyValue eventKv = tomb ? kv.toBuilder().setModRevision(rev.main()).build() : kv;
            Revision prev = tomb || kv.getVersion() > 1 ? previousRevision(kv.getKey().toByteArray(), rev) : null;
            return visitor.test(new ChangeEvent(tomb ? Event.EventType.DELETE : Event.EventType.PUT, eventKv, prev));
        });
    }

    private Revision previousRevision(byte[] key, Revision rev) {
        KeyHistory h = store.index.get(key);
        if (h == null) {
            return null;
        }
        KeyHistory.Change c = h.visibleAt(rev.main() - 1);
        return c == null ? null : c.rev();
    }

    /**
     * etcd's HashKV up to {@code rev} (0: the view's revision): a CRC-32C over the key bucket's
     * name, then each revision key and value in key order, for revisions after the compaction
     * and up to {@code rev}. A revision at or below the compaction counts only if it is the one
     * each key shows at {@code rev} (etcd's {@code kvindex.Keep(rev)}): the value a key kept at
     * the compaction point is left out once the key changed again, so members that compacted
     * at different times still agree. When no key shows anything at {@code rev} every stored
     * revision counts, as in etcd. A tombstone at exactly the compaction revision never counts
     * (etcd 3.5.16+ keeps it in the file, older versions drop it; the hash ignores it so both
     * agree). Returns the hash and the revision it covers; the caller checks {@code rev}.
     */
    public long[] hashKv(long rev) {
        long at = rev <= 0 ? readRevision() : rev;
        return new long[] {hash(store.compactRev, at), at};
    }

    /**
     * The hash of the key bucket up to {@code at}: everything after {@code compacted}, and at or
     * below it only what keys show at {@code at} (all of it when no key shows anything).
     */
    long hash(long compacted, long at) {
        Set<Revision> keep = store.index.keptAt(at);
        CRC32C crc = new CRC32C();
        crc.update(Bucket.KEY.dbName().getBytes(StandardCharsets.UTF_8));
        tx.forEach(Bucket.KEY, null, Revision.startKey(at + 1), (k, v) -> {
            if (counts(Revision.fromBytes(k), Revision.isTombstone(k), compacted, keep)) {
                crc.update(k);
                crc.update(v);
            }
            return true;
        });
        return crc.getValue();
    }

    /**
     * Whether a stored revision counts in the hash of a store compacted at {@code compacted}:
     * every one after it; at or below it only those kept (all when nothing is kept); never a
     * tombstone at exactly the compaction revision.
     */
    static boolean counts(Revision r, boolean tombstone, long compacted, Set<Revision> keep) {
        if (r.main() <= compacted && !keep.isEmpty() && !keep.contains(r)) {
            return false;
        }
        return !(r.main() == compacted && tombstone);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                tx.close();
            } finally {
                lock.unlock();
            }
        }
    }
}
