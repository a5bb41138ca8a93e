package io.etcdj.server.backend;

import io.etcdj.server.metrics.BackendMetrics;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.KeyRange;
import org.lmdbjava.Txn;

/** A read view of the backend. Close it promptly: an open reader pins old pages. */
public class ReadTx implements AutoCloseable {
    final Txn<byte[]> txn;
    final Map<Bucket, Dbi<byte[]>> dbis;
    private final Lock envReadLock;
    final BackendMetrics metrics;
    private boolean closed;

    ReadTx(Txn<byte[]> txn, Map<Bucket, Dbi<byte[]>> dbis, Lock envReadLock, BackendMetrics metrics) {
        this.txn = txn;
        this.metrics = metrics;
        this.dbis = dbis;
        this.envReadLock = envReadLock;
        if (txn.isReadOnly()) {
            metrics.readTxnOpened();
        }
    }

    public byte[] get(Bucket bucket, byte[] key) {
        return dbis.get(bucket).get(txn, key);
    }

    /** Visits keys in [from, to) in ascending order ({@code to == null}: to the end) until the visitor returns false. */
    public void forEach(Bucket bucket, byte[] from, byte[] to, Visitor visitor) {
        KeyRange<byte[]> range = from == null ? KeyRange.all() : KeyRange.atLeast(from);
        try (CursorIterable<byte[]> it = dbis.get(bucket).iterate(txn, range)) {
            for (CursorIterable.KeyVal<byte[]> kv : it) {
                if (to != null && Bytes.compare(kv.key(), to) >= 0) {
                    return;
                }
                if (!visitor.visit(kv.key(), kv.val())) {
                    return;
                }
            }
        }
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
