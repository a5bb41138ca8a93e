package io.etcdj.server.mvcc;

import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.MvccMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * The physical side of compaction, as etcd's scheduled compaction: applying a compaction only
 * records it (the scheduled compact revision, and reads below it are refused from then on); a job
 * then compacts the key index and deletes the old revisions from the key bucket in backend
 * transactions of at most {@code batchLimit} revisions each, committing each, sleeping
 * {@code sleepNanos} between them so puts wait for one batch at most, and finally records the
 * finished compact revision and the compaction's hash.
 *
 * <p>A member that stops in the middle resumes on restart: its backend's scheduled compact
 * revision is ahead of the finished one. Jobs run one at a time in order, on the thread
 * "compactor" once {@link #startBackground} was called (the server), or else on the thread that
 * committed the compaction, at once (offline tools and tests).
 */
final class Compactions {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** A compaction to carry out: history below {@code rev}, after the one at {@code prevCompactRev}. */
    record Job(long rev, long prevCompactRev, boolean prevCompleted) {
    }

    private final MvccStore store;
    private final Backend backend;
    private final TreeMap<Long, List<CompletableFuture<Void>>> waiters = new TreeMap<>();
    private volatile int batchLimit = 1000;
    private volatile long sleepNanos = TimeUnit.MILLISECONDS.toNanos(10);
    private volatile ExecutorService executor;
    /** Bumped by {@link #stop}: jobs of an older epoch give up at their next batch. */
    private volatile long epoch;
    /** Test hook: runs after each committed batch that did not finish the job. */
    volatile Runnable afterBatch = () -> { };
    private final MvccMetrics metrics;

    Compactions(MvccStore store, Backend backend, MvccMetrics metrics, LogSink logs) {
        this.log = logs.logger("mvcc");
        this.store = store;
        this.metrics = metrics;
        this.backend = backend;
    }

    /** Runs jobs on a thread of their own from now on, with etcd's batch limit and sleep. */
    synchronized void startBackground(int limit, long sleep) {
        this.batchLimit = Math.max(1, limit);
        this.sleepNanos = Math.max(0, sleep);
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "compactor");
                t.setDaemon(true);
                return t;
            });
        }
    }

    boolean inBackground() {
        return executor != null;
    }

    /** Hands a committed compaction to the compactor (or runs it now without one). */
    void submit(Job job) {
        long myEpoch = epoch;
        ExecutorService ex = executor;
        if (ex == null) {
            run(job, myEpoch);
        } else {
            ex.execute(() -> run(job, myEpoch));
        }
    }

    /**
     * Stops the running job at its next batch and drops queued ones (before the backend file is
     * replaced or closed); waits up to a few seconds for the compactor to let go of the backend.
     */
    void stop() {
        epoch++;
        ExecutorService ex = executor;
        if (ex != null) {
            try {
                ex.submit(() -> { }).get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.warn("compactor did not stop in time", "error", String.valueOf(e));
            }
        }
    }

    /** Stops for good: the member is closing. */
    synchronized void close() {
        stop();
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    /** Completes once the compaction at {@code rev} (or a later one) is finished in the backend. */
    CompletableFuture<Void> whenFinished(long rev) {
        synchronized (waiters) {
            if (store.finishedCompactRev >= rev) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiters.computeIfAbsent(rev, r -> new ArrayList<>()).add(f);
            return f;
        }
    }

    private void finished(long rev) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (waiters) {
            store.finishedCompactRev = Math.max(store.finishedCompactRev, rev);
            Iterator<Map.Entry<Long, List<CompletableFuture<Void>>>> it = waiters.headMap(rev, true).entrySet().iterator();
            while (it.hasNext()) {
                done.addAll(it.next().getValue());
                it.remove();
            }
        }
        done.forEach(f -> f.complete(null));
    }

    private void run(Job job, long myEpoch) {
        try {
            if (compact(job, myEpoch)) {
                finished(job.rev());
            }
        } catch (RuntimeException e) {
            if (myEpoch == epoch) {
                log.warn("Failed compaction", e, "compact-revision", job.rev(), "error", String.valueOf(e.getMessage()));
            }
        }
    }

    /** Carries out one job; false if it was stopped before it finished. */
    private boolean compact(Job job, long myEpoch) {
        long rev = job.rev();
        long start = System.nanoTime();
        Set<Revision> keep;
        store.lockForIndex().lock();
        try {
            if (myEpoch != epoch) {
                return false;
            }
            store.index.compact(rev);
            keep = store.index.keptAt(rev);
        } finally {
            store.lockForIndex().unlock();
        }
        metrics.indexCompacted(start);
        CRC32C crc = new CRC32C();
        crc.update(Bucket.KEY.dbName().getBytes(StandardCharsets.UTF_8));
        byte[] end = Revision.startKey(rev + 1);
        byte[] from = null;
        int limit = batchLimit;
        long removed = 0;
        while (true) {
            if (myEpoch != epoch) {
                return false;
            }
            long batchStart = System.nanoTime();
            List<byte[]> seen = new ArrayList<>(Math.min(limit, 4096));
            List<byte[]> drop = new ArrayList<>();
            boolean done;
            WriteTx tx = backend.beginWrite();
            try {
                tx.forEach(Bucket.KEY, from, end, (k, v) -> {
                    Revision r = Revision.fromBytes(k);
                    if (ReadView.counts(r, Revision.isTombstone(k), job.prevCompactRev(), keep)) {
                        crc.update(k);
                        crc.update(v);
                    }
                    if (!keep.contains(r)) {
                        drop.add(k);
                    }
                    seen.add(k);
                    return seen.size() < limit;
                });
                for (byte[] k : drop) {
                    tx.delete(Bucket.KEY, k);
                }
                done = seen.size() < limit;
                if (done) {
                    tx.put(Bucket.META, MetaKeys.FINISHED_COMPACT_REV, Bytes.longBytes(rev));
                }
                tx.commit();
            } finally {
                tx.close();
            }
            removed += drop.size();
            metrics.batchCompacted(drop.size(), batchStart);
            if (done) {
                break;
            }
            byte[] last = seen.get(seen.size() - 1);
            from = Arrays.copyOf(last, last.length + 1);
            afterBatch.run();
            if (!pause()) {
                return false;
            }
        }
        metrics.compacted(start);
        long hash = crc.getValue();
        if (job.prevCompleted()) {
            store.compactionHashes.add(new CompactionHashes.Entry(hash, job.prevCompactRev(), rev));
        } else {
            log.info("previous compaction was interrupted, skip storing compaction hash value");
        }
        log.info("finished scheduled compaction", "compact-revision", rev,
                "took", ((System.nanoTime() - start) / 1_000_000) + "ms", "hash", hash, "removed-revisions", removed,
                "current-db-size-bytes", backend.size());
        return true;
    }

    /** Sleeps between batches; false if interrupted (the member is stopping). */
    private boolean pause() {
        long nanos = sleepNanos;
        if (nanos <= 0 || executor == null) {
            return true;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
