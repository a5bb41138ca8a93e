package io.etcdj.server.mvcc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.MvccMetrics;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The multi-version key-value store: the in-memory {@link KeyIndex} over values kept in the
 * backend's key bucket. Reads go through a {@link ReadView}; the apply loop writes through a
 * {@link WriteBatch}, which commits the backend before readers can see the new revision.
 *
 * <p>Threading: many readers or one write batch at a time (a read-write lock). The revision a
 * new reader sees is published only after the batch's backend commit. Compaction is applied in
 * the write batch (reads below it are refused from then on) and carried out afterwards by
 * {@link Compactions}, in batches.
 */
public final class MvccStore {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private final Backend backend;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final KeyIndex index = new KeyIndex();
    /** Revision of the last applied write; a fresh store starts at 1, as etcd. */
    volatile long currentRev = 1;
    volatile long compactRev = 0;
    /** The last compaction applied (etcd's scheduledCompactRev) and the last carried out in full. */
    volatile long scheduledCompactRev = 0;
    volatile long finishedCompactRev = 0;
    final CompactionHashes compactionHashes = new CompactionHashes();
    final Compactions compactions;
    /** A compaction a previous run applied but did not finish, resumed by {@link #startBackgroundCompaction}. */
    private Compactions.Job interrupted;

    private volatile long lastLiveKeys;

    private MvccStore(Backend backend, MvccMetrics metrics, LogSink logs) {
        this.log = logs.logger("mvcc");
        this.backend = backend;
        this.compactions = new Compactions(this, backend, metrics, logs);
    }

    /** Opens the store over the backend, rebuilding the key index from the key bucket. */
    public static MvccStore open(Backend backend) {
        return open(backend, MvccMetrics.unexported(), Log.processSink());
    }

    /** As {@link #open(Backend)}, for a member: timing compactions into its {@code metrics}, logging to its {@code logs}. */
    public static MvccStore open(Backend backend, MvccMetrics metrics, LogSink logs) {
        MvccStore s = new MvccStore(backend, metrics, logs);
        s.restore();
        return s;
    }

    /** Rebuilds the index after the backend file was replaced (snapshot install). */
    public void reload() {
        compactions.stop();
        lock.writeLock().lock();
        try {
            index.clear();
            currentRev = 1;
            compactRev = 0;
            compactionHashes.clear();
            restore();
        } finally {
            lock.writeLock().unlock();
        }
        if (compactions.inBackground()) {
            resumeInterrupted();
        }
    }

    /**
     * Carries out compactions on the thread "compactor" from now on, {@code batchLimit} revisions
     * per backend transaction with {@code sleepNanos} between them (--compaction-batch-limit,
     * --compaction-sleep-interval), and resumes one that a previous run did not finish. Without
     * this call compactions are carried out at once by the thread that commits them.
     */
    public void startBackgroundCompaction(int batchLimit, long sleepNanos) {
        compactions.startBackground(batchLimit, sleepNanos);
        resumeInterrupted();
    }

    private void resumeInterrupted() {
        Compactions.Job job = interrupted;
        interrupted = null;
        if (job != null) {
            log.info("resume scheduled compaction", "scheduled-compact-revision", job.rev());
            compactions.submit(job);
        }
    }

    /** Runs {@code hook} on the compactor after each committed batch that did not finish a compaction (failpoints). */
    public void afterCompactionBatch(Runnable hook) {
        compactions.afterBatch = hook;
    }

    /** Completes once the compaction at {@code revision} has removed its history from the backend. */
    public CompletableFuture<Void> whenCompacted(long revision) {
        return compactions.whenFinished(revision);
    }

    /** Stops the compactor (a compaction in progress resumes at the next start). */
    public void close() {
        compactions.close();
    }

    Lock lockForIndex() {
        return lock.writeLock();
    }

    private void restore() {
        try (ReadTx tx = backend.beginRead()) {
            byte[] finished = tx.get(Bucket.META, MetaKeys.FINISHED_COMPACT_REV);
            byte[] scheduled = tx.get(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV);
            finishedCompactRev = finished == null ? 0 : Bytes.toLong(finished);
            scheduledCompactRev = scheduled == null ? finishedCompactRev : Bytes.toLong(scheduled);
            // a compaction applied before a stop counts from its application on, finished or not
            compactRev = Math.max(finishedCompactRev, scheduledCompactRev);
            interrupted = scheduledCompactRev > finishedCompactRev
                    ? new Compactions.Job(scheduledCompactRev, finishedCompactRev, false) : null;
            long[] last = {1};
            tx.forEach(Bucket.KEY, null, null, (k, v) -> {
                Revision rev = Revision.fromBytes(k);
                boolean tomb = Revision.isTombstone(k);
                KeyValue kv = parse(v);
                index.getOrCreate(kv.getKey().toByteArray()).add(tomb
                        ? new KeyHistory.Change(rev, 0, 0, 0, true)
                        : new KeyHistory.Change(rev, kv.getCreateRevision(), kv.getVersion(), kv.getLease(), false));
                last[0] = Math.max(last[0], rev.main());
                return true;
            });
            currentRev = Math.max(last[0], compactRev);
        }
    }

    static KeyValue parse(byte[] v) {
        try {
            return KeyValue.parseFrom(v);
        } catch (InvalidProtocolBufferException e) {
            throw new BackendException("corrupt value in key bucket: " + e.getMessage(), e);
        }
    }

    public long currentRevision() {
        return currentRev;
    }

    public long compactRevision() {
        return compactRev;
    }

    /** The hashes recorded by recent compactions, for the compaction hash check. */
    public CompactionHashes compactionHashes() {
        return compactionHashes;
    }

    /** Number of keys in the index (live or with history). */
    public int indexedKeys() {
        lock.readLock().lock();
        try {
            return index.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Number of keys alive at the current revision (etcd's etcd_debugging_mvcc_keys_total). It
     * never waits for the writer: while a write batch holds the index, the count taken last is
     * returned (a /metrics scrape runs on a connection's event loop).
     */
    public long liveKeys() {
        if (!lock.readLock().tryLock()) {
            return lastLiveKeys;
        }
        try {
            lastLiveKeys = index.liveKeys();
            return lastLiveKeys;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** A consistent read view at the current revision; close it promptly. */
    public ReadView openRead() {
        lock.readLock().lock();
        try {
            return new ReadView(this, backend.beginRead(), currentRev, lock.readLock());
        } catch (RuntimeException e) {
            lock.readLock().unlock();
            throw e;
        }
    }

    /**
     * As {@link #openRead}, or null when that would wait: the apply loop's write batch (or a
     * compaction of the index, a reload) holds the store, or the backend is held exclusively.
     * A view opened later sees at least what one opened now would, so a caller that gets null
     * may open the view on another thread and the read stays linearizable.
     */
    public ReadView tryOpenRead() {
        // a queued write batch goes first, as with openRead(): tryLock alone would let readers starve it
        if (lock.hasQueuedThreads() || !lock.readLock().tryLock()) {
            return null;
        }
        try {
            ReadTx tx = backend.tryBeginRead();
            if (tx == null) {
                lock.readLock().unlock();
                return null;
            }
            return new ReadView(this, tx, currentRev, lock.readLock());
        } catch (RuntimeException e) {
            lock.readLock().unlock();
            throw e;
        }
    }

    /**
     * {@link #openWriteBatch} for a caller that must not wait (the Raft thread applying a small
     * batch itself): null when the compactor holds the key index or the backend is held by a
     * defragment, a snapshot install or map growth.
     */
    public WriteBatch tryOpenWriteBatch() {
        if (!lock.writeLock().tryLock()) {
            return null;
        }
        try {
            WriteTx tx = backend.tryBeginWrite();
            if (tx == null) {
                lock.writeLock().unlock();
                return null;
            }
            return new WriteBatch(this, tx, lock.writeLock());
        } catch (RuntimeException e) {
            lock.writeLock().unlock();
            throw e;
        }
    }

    /** The apply loop's batch: exclusive until {@link WriteBatch#commit} or abort. */
    public WriteBatch openWriteBatch() {
        lock.writeLock().lock();
        try {
            return new WriteBatch(this, backend.beginWrite(), lock.writeLock());
        } catch (RuntimeException e) {
            lock.writeLock().unlock();
            throw e;
        }
    }
}
