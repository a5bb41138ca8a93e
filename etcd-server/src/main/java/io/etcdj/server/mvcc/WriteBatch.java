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
    /** Compactions applied in this batch, handed to the compactor once it commits. */
    private final List<Compactions.Job> compactions = new ArrayList<>();
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
     * Applies a compaction at {@code rev}: reads below it are refused from now on, and once this
     * batch commits the store's compactor removes the history below it (etcd's scheduled
     * compaction). Throws etcd's errors for a future or already compacted revision.
     */
    public void compact(long rev) {
        if (rev > batchRev) {
            throw EtcdError.FUTURE_REV.exception();
        }
        if (rev <= store.compactRev) {
            throw EtcdError.COMPACTED.exception();
        }
        boolean prevCompleted = store.scheduledCompactRev == store.finishedCompactRev;
        wtx.put(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV, Bytes.longBytes(rev));
        compactions.add(new Compactions.Job(rev, store.compactRev, prevCompleted));
        store.compactRev = rev;
        store.scheduledCompactRev = rev;
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
        } finally {
            close();
        }
        for (Compactions.Job job : compactions) {
            store.compactions.submit(job);
        }
        return events;
    }
}
