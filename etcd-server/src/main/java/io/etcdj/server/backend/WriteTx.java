package io.etcdj.server.backend;

import io.etcdj.server.metrics.BackendMetrics;
import java.nio.file.Path;
import java.util.concurrent.locks.Lock;

/** The backend's single write transaction; reads through it see its own writes. */
public final class WriteTx extends ReadTx {
    private final Lock commitLock;
    private final Runnable onCommit;
    /** The backend file, named when a commit fails. */
    private final Path file;

    WriteTx(LmdbTxn txn, int[] dbis, Lock envReadLock, Lock commitLock, Runnable onCommit,
            Path file, BackendMetrics metrics) {
        super(txn, dbis, envReadLock, metrics);
        this.commitLock = commitLock;
        this.onCommit = onCommit;
        this.file = file;
    }

    public void put(Bucket bucket, byte[] key, byte[] value) {
        txn.put(dbis[bucket.ordinal()], key, value);
    }

    public void delete(Bucket bucket, byte[] key) {
        txn.delete(dbis[bucket.ordinal()], key);
    }

    /** Makes the writes visible to new readers (durable at the next sync). */
    public void commit() {
        try {
            long start = System.nanoTime();
            // a sync reading the meta pages of the commit it pins must not see this one half-written
            commitLock.lock();
            try {
                txn.commit();
            } finally {
                commitLock.unlock();
            }
            metrics.committed(start);
            onCommit.run();
        } catch (RuntimeException e) {
            throw new BackendException("backend commit failed: " + WriteFailure.describe(file, e), e);
        } finally {
            close();
        }
    }
}
