package io.etcdj.server.backend;

import io.etcdj.server.metrics.BackendMetrics;
import java.util.concurrent.locks.Lock;

/** A read view of the backend. Close it promptly: an open reader pins old pages. */
public class ReadTx implements AutoCloseable {
    final LmdbTxn txn;
    /** Each bucket's database handle, by the bucket's ordinal. */
    final int[] dbis;
    private final Lock envReadLock;
    final BackendMetrics metrics;
    private boolean closed;

    ReadTx(LmdbTxn txn, int[] dbis, Lock envReadLock, BackendMetrics metrics) {
        this.txn = txn;
        this.metrics = metrics;
        this.dbis = dbis;
        this.envReadLock = envReadLock;
        if (txn.isReadOnly()) {
            metrics.readTxnOpened();
        }
    }

    public byte[] get(Bucket bucket, byte[] key) {
        return txn.get(dbis[bucket.ordinal()], key);
    }

    /** Visits keys in [from, to) in ascending order ({@code to == null}: to the end) until the visitor returns false. */
    public void forEach(Bucket bucket, byte[] from, byte[] to, Visitor visitor) {
        txn.forEach(dbis[bucket.ordinal()], from, (key, value) -> (to == null || Bytes.compare(key, to) < 0) && visitor.visit(key, value));
    }

    /** Receives one key-value pair; returns whether to continue. */
    @FunctionalInterface
    public interface Visitor {
        boolean visit(byte[] key, byte[] value);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (txn.isReadOnly()) {
                metrics.readTxnClosed();
            }
            try {
                txn.close();
            } finally {
                envReadLock.unlock();
            }
        }
    }
}
