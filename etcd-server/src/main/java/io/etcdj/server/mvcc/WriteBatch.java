package io.etcdj.server.mvcc;

import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.error.EtcdError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * The apply loop's exclusive access to the store and the backend for a run of committed Raft
 * entries. Each entry's writes go through one {@link TxnWrite} (one main revision). Other state
 * machines (lessor, auth, membership) write their buckets through {@link #backendTx()} so that
 * everything an entry changes commits together with the consistent index.
 */
public final class WriteBatch extends ReadView {
    private final WriteTx wtx;
    private final List<ChangeEvent> events = new ArrayList<>();
    private long batchRev;

    WriteBatch(MvccStore store, WriteTx wtx, Lock lock) {
        super(store, wtx, store.currentRev, lock);
        this.wtx = wtx;
        this.batchRev = store.currentRev;
    }

    @Override
    long readRevision() {
        return batchRev;
    }

    public WriteTx backendTx() {
        return wtx;
    }

    /** Starts the writes of one request at main revision {@code current + 1}. */
    public TxnWrite beginTxn() {
        return new TxnWrite(this, batchRev + 1);
    }

    void finished(TxnWrite txn, List<ChangeEvent> txnEvents) {
        if (!txnEvents.isEmpty()) {
            batchRev = txn.revision();
            events.addAll(txnEvents);
        }
    }

    KeyIndex index() {
        return store.index;
    }

    /**
     * Compacts history below {@code rev}: the index forgets it and the backend drops the values.
     * Throws etcd's errors for a future or already compacted revision.
     */
    public void compact(long rev) {
        if (rev > batchRev) {
            throw EtcdError.FUTURE_REV.exception();
        }
        if (rev <= store.compactRev) {
            throw EtcdError.COMPACTED.exception();
        }
        wtx.put(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV, Bytes.longBytes(rev));
        // etcd hashes the history this compaction covers before dropping any of it
        long hash = hash(store.compactRev, rev);
        store.compactionHashes.add(new CompactionHashes.Entry(hash, store.compactRev, rev));
        long start = System.nanoTime();
        List<KeyHistory.Change> removed = store.index.compact(rev);
        io.etcdj.server.metrics.Metrics.INDEX_COMPACTION_PAUSE_MS.observe((System.nanoTime() - start) / 1e6);
        for (KeyHistory.Change c : removed) {
            wtx.delete(Bucket.KEY, c.rev().toBytes(c.tombstone()));
        }
        io.etcdj.server.metrics.Metrics.compacted(removed.size(), start);
        wtx.put(Bucket.META, MetaKeys.FINISHED_COMPACT_REV, Bytes.longBytes(rev));
        store.compactRev = rev;
    }

    /**
     * Records the Raft position of what was applied, commits the backend and publishes the new
     * revision to readers. Returns the events of the batch, in revision order, for watchers.
     */
    public List<ChangeEvent> commit(long consistentIndex, long term) {
        try {
            wtx.put(Bucket.META, MetaKeys.CONSISTENT_INDEX, Bytes.longBytes(consistentIndex));
            wtx.put(Bucket.META, MetaKeys.TERM, Bytes.longBytes(term));
            wtx.commit();
            store.currentRev = batchRev;
            return events;
        } finally {
            close();
        }
    }
}
