package io.etcdj.server.backend;

import io.etcdj.server.metrics.BackendMetrics;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.lmdbjava.Dbi;
import org.lmdbjava.Txn;

/** The backend's single write transaction; reads through it see its own writes. */
public final class WriteTx extends ReadTx {
    private final Lock commitLock;
    private final Runnable onCommit;
    /** The backend file, named when a commit fails. */
    private final Path file;

    WriteTx(Txn<byte[]> txn, Map<Bucket, Dbi<byte[]>> dbis, Lock envReadLock, Lock commitLock, Runnable onCommit,
            Path file, BackendMetrics metrics) {
        super(txn, dbis, envReadLock, metrics);
        this.commitLock = commitLock;
        this.onCommit = onCommit;
        this.file = file;
    }

    public void put(Bucket bucket, byte[] key, byte[] value) {
        dbis.get(bucket).put(txn, key, value);
    }

    public void delete(Bucket bucket, byte[] key) {
        dbis.get(bucket).delete(txn, key);
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
