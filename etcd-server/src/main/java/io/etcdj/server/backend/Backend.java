package io.etcdj.server.backend;

import io.etcdj.server.fileutil.Fsync;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.BackendMetrics;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The member's backend file ({@code member/snap/db}) on LMDB: one file, copy-on-write B+tree,
 * buckets as named databases. Commits do not fsync: the WAL is the durability and replays from
 * the consistent index stored here, so applying twice is harmless; {@link #sync()} is called by
 * the server every batch interval (etcd commits bbolt every 100 ms) and at shutdown.
 *
 * <p>Power cuts: a commit made without an fsync may reach the disk in any order, its meta page
 * before its data pages. Each {@link #sync()} therefore records the durable commit's meta pages
 * ({@link DurableCommit}) and pins that commit's pages with a read transaction until the next
 * record is durable, and an open puts the recorded meta pages back: the file always opens on a
 * commit whose pages are all on disk. Every replacement of the file (defragment, snapshot
 * install) syncs the new file before renaming it in and syncs the directory after.
 *
 * <p>Threading: one writer at a time (the apply loop); any number of concurrent readers.
 * Defragment and close take the exclusive side of {@code envLock} so no transaction outlives
 * the environment it was opened on.
 */
public final class Backend implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private static final long HEADROOM = 512L << 20;
    /** A write transaction's page overhead beyond twice its bytes (copied branch pages, meta). */
    private static final long TXN_PAGE_SLACK = 64L << 10;

    private final Path file;
    private volatile long mapSize;
    private final ReentrantReadWriteLock envLock = new ReentrantReadWriteLock();
    private LmdbEnv env;
    /** Each bucket's database handle, by the bucket's ordinal (handles stay valid for the environment's life). */
    private int[] dbis = new int[Bucket.values().length];
    /** Held by a commit and by a sync while it reads the meta pages of the commit it pins. */
    private final ReentrantLock commitLock = new ReentrantLock();
    /** One sync at a time; guards {@link #durablePin} and {@link #durable}. */
    private final Object syncMutex = new Object();
    /** etcd's {@code --unsafe-no-fsync}: {@link #sync} neither fsyncs nor records a durable commit. */
    private final boolean unsafeNoFsync;
    /** The meta pages are read through this (the kernel's view of what LMDB wrote); not a channel, which an interrupt closes. */
    private RandomAccessFile metaReader;
    private DurableCommit durable;
    /** A read transaction on the last durable commit: LMDB reuses none of its pages while it is open. */
    private LmdbTxn durablePin;
    /** A test's and a failpoint's hook inside each defragment, before the copy. */
    private volatile Runnable beforeDefragCopy = () -> { };
    /** The file's sizes as of a recent write commit: read on every write's path. */
    private final BackendSizes sizes;
    /** The member's instruments (open read transactions, commit durations). */
    private final BackendMetrics metrics;

    private Backend(Path file, long mapSize, BackendMetrics metrics, LogSink logs, boolean unsafeNoFsync) {
        this.log = logs.logger("backend");
        this.file = file;
        this.metrics = metrics;
        this.mapSize = mapSize;
        this.unsafeNoFsync = unsafeNoFsync;
        this.sizes = new BackendSizes(this::extent, this::sizeInUse, this::size);
    }

    /**
     * Opens (or creates) the backend file. {@code quotaBytes} is the space quota; the map is made
     * a little larger so that deletes and compaction still work once the quota alarm is raised.
     */
    public static Backend open(Path file, long quotaBytes) {
        return open(file, quotaBytes, BackendMetrics.unexported(), Log.processSink());
    }

    /** As {@link #open(Path, long)}, for a member: counting into its {@code metrics}, logging to its {@code logs}. */
    public static Backend open(Path file, long quotaBytes, BackendMetrics metrics, LogSink logs) {
        return open(file, quotaBytes, metrics, logs, false);
    }

    /**
     * As {@link #open(Path, long, BackendMetrics, LogSink)}; with {@code unsafeNoFsync} (etcd 3.5's
     * {@code --unsafe-no-fsync}, which sets bbolt's NoSync) {@link #sync} does nothing, so a power
     * cut loses what was written since the file was opened, defragmented or replaced.
     */
    public static Backend open(Path file, long quotaBytes, BackendMetrics metrics, LogSink logs, boolean unsafeNoFsync) {
        Backend b = new Backend(file, quotaBytes + HEADROOM, metrics, logs, unsafeNoFsync);
        b.openEnv();
        return b;
    }

    private void openEnv() {
        Path recordFile = DurableCommit.fileFor(file);
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            if (fresh) {
                // A record with no durable commit before the file exists: a file left by a power
                // cut before the first sync is then known to hold nothing durable.
                DurableCommit.create(recordFile, null);
            } else {
                DurableCommit.Outcome outcome = DurableCommit.restore(file);
                if (outcome == DurableCommit.Outcome.ROLLED_BACK) {
                    log.warn("backend reopened on its last durable commit; the WAL replays the rest", "path", file.toString());
                } else if (outcome == DurableCommit.Outcome.DISCARDED) {
                    log.warn("backend file was never made durable; starting it anew", "path", file.toString());
                }
            }
            env = LmdbEnv.open(file, mapSize, Bucket.values().length, 1024, Lmdb.NOSUBDIR | Lmdb.NOTLS | Lmdb.NOSYNC);
            Fsync.dir(dir);
            metaReader = new RandomAccessFile(file.toFile(), "r");
            durable = DurableCommit.open(recordFile);
            // pinned before the buckets are opened: opening one that does not exist yet commits
            syncPoint();
            int[] opened = new int[Bucket.values().length];
            for (Bucket bucket : Bucket.values()) {
                opened[bucket.ordinal()] = env.openDbi(bucket.dbName());
            }
            dbis = opened;
            syncPoint();
            sizes.refresh();
        } catch (IOException | LmdbError e) {
            throw new BackendException("cannot open backend file " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** Starts the single write transaction; the caller must commit or abort it. */
    public WriteTx beginWrite() {
        envLock.readLock().lock();
        return writeTxUnderLock();
    }

    /** {@link #beginWrite} without waiting for a defragment, install or map growth (null then); LMDB's writer lock is waited for. */
    public WriteTx tryBeginWrite() {
        if (envLock.hasQueuedThreads() || !envLock.readLock().tryLock()) {
            return null;
        }
        return writeTxUnderLock();
    }

    private WriteTx writeTxUnderLock() {
        try {
            return new WriteTx(env.txnWrite(), dbis, envLock.readLock(), commitLock, sizes::committed, file, metrics);
        } catch (RuntimeException e) {
            envLock.readLock().unlock();
            throw e;
        }
    }

    /** A consistent read view of the last committed write transaction. */
    public ReadTx beginRead() {
        envLock.readLock().lock();
        try {
            return new ReadTx(env.txnRead(), dbis, envLock.readLock(), metrics);
        } catch (RuntimeException e) {
            envLock.readLock().unlock();
            throw e;
        }
    }

    /**
     * As {@link #beginRead}, or null when the environment is held exclusively right now (a
     * defragment, a snapshot install, the map growing): for callers that must not wait, such as
     * a connection's event loop, which then hand the read to a thread that may.
     */
    public ReadTx tryBeginRead() {
        // a queued writer (defragment, map growth) goes first: tryLock alone would let a stream of
        // readers keep it out for good, where lock() queues behind it
        if (envLock.hasQueuedThreads() || !envLock.readLock().tryLock()) {
            return null;
        }
        try {
            return new ReadTx(env.txnRead(), dbis, envLock.readLock(), metrics);
        } catch (RuntimeException e) {
            envLock.readLock().unlock();
            throw e;
        }
    }

    /**
     * Makes every commit so far durable and records the newest as the commit to reopen on after
     * a power cut. Safe to call from any thread, beside the writer and readers.
     */
    public void sync() {
        if (unsafeNoFsync) {
            return;
        }
        envLock.readLock().lock();
        try {
            syncPoint();
        } finally {
            envLock.readLock().unlock();
        }
    }

    /**
     * The caller holds {@code envLock}. Pins the newest commit and reads its meta pages (no commit
     * in between), fsyncs the file, records the meta pages durably, and only then lets go of the
     * previous pin: at every moment the newest valid record names a commit whose pages are all
     * on disk and not reused. When the newest commit is the one already recorded, there is
     * nothing to do (etcd's backend, too, commits its batch only when it holds writes).
     */
    private void syncPoint() {
        synchronized (syncMutex) {
            LmdbTxn pin;
            MetaPages metas;
            commitLock.lock();
            try {
                pin = env.txnRead();
                if (durablePin != null && durablePin.id() == pin.id()) {
                    pin.close(); // nothing committed since the last sync: an idle member touches no disk
                    return;
                }
                metas = metaPagesOf(pin);
            } finally {
                commitLock.unlock();
            }
            try {
                if (metas.newestTxnId() != pin.id()) {
                    throw new BackendException("backend meta pages name transaction " + metas.newestTxnId()
                            + " but the newest commit is " + pin.id());
                }
                env.sync(true);
                durable.record(metas);
            } catch (IOException | RuntimeException e) {
                pin.close();
                throw e instanceof BackendException be ? be
                        : new BackendException("backend sync failed: " + e, e);
            }
            LmdbTxn previous = durablePin;
            durablePin = pin;
            if (previous != null) {
                previous.close();
            }
        }
    }

    /** The meta pages as they stand for {@code pin}, the newest commit (the caller holds {@code commitLock}); closes it on failure. */
    private MetaPages metaPagesOf(LmdbTxn pin) {
        try {
            return MetaPages.read(metaReader, 0);
        } catch (IOException e) {
            pin.close();
            throw new BackendException("cannot read the backend's meta pages: " + e.getMessage(), e);
        }
    }

    /** The caller holds {@code envLock} exclusively: no transaction is open but the pin. */
    private void closeEnv() throws IOException {
        synchronized (syncMutex) {
            if (durablePin != null) {
                durablePin.close();
                durablePin = null;
            }
        }
        env.close();
        metaReader.close();
        durable.close();
    }

    /**
     * Makes sure the next write transaction, of about {@code bytes}, cannot run into LMDB's map
     * size (which would fail the transaction): when the pages in use plus twice the write plus
     * the headroom pass the map, the map is doubled (or more). LMDB allows resizing only with no
     * transaction open, so this takes the environment exclusively; the caller holds no other lock.
     */
    public void ensureRoom(long bytes) {
        long need = reserve(bytes);
        if (need <= mapSize) {
            return;
        }
        envLock.writeLock().lock();
        try {
            long grown = Math.max(mapSize * 2, need + HEADROOM);
            env.setMapSize(grown);
            mapSize = grown;
        } catch (LmdbError e) {
            throw new BackendException("cannot grow the backend map to make room for " + bytes + " bytes: " + e.getMessage(), e);
        } finally {
            envLock.writeLock().unlock();
        }
    }

    /** {@link #ensureRoom} for a caller that must not wait for the map to grow: false when it would have to. */
    public boolean hasRoom(long bytes) {
        return reserve(bytes) <= mapSize;
    }

    private long reserve(long bytes) {
        return sizes.reserve(2 * bytes + TXN_PAGE_SLACK, mapSize - HEADROOM) + HEADROOM;
    }

    /** The current LMDB map size: the most the file may grow to before {@link #ensureRoom} grows it. */
    public long mapSize() {
        return mapSize;
    }

    /**
     * The file's size as of a recent write commit (at most {@value BackendSizes#REFRESH_COMMITS} commits, 1 MB of
     * writes or 50 ms behind), without a system call: for the quota check on every write's path.
     * {@link #size()} is exact.
     */
    public long recentSize() {
        return sizes.size();
    }

    /** Size of the file on disk in bytes (etcd's dbSize). */
    public long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** {@link #sizeInUse} as of a recent write commit, without waiting (for /metrics). */
    public long recentSizeInUse() {
        return sizes.inUse();
    }

    /**
     * Bytes of the pages that hold data (etcd's dbSizeInUse, and what the space quota counts): the
     * two meta pages and every bucket's branch, leaf and overflow pages. The file also holds pages
     * LMDB freed and will reuse, more of them than bbolt keeps (the durable commit's pages stay
     * pinned until the next sync), so the file's size says less about what the data needs: a fresh
     * member's file is 19 pages of which 7 hold data.
     */
    public long sizeInUse() {
        envLock.readLock().lock();
        try (LmdbTxn txn = env.txnRead()) {
            LmdbStat main = env.stat();
            long pages = 2 + main.pages();
            for (int dbi : dbis) {
                pages += txn.stat(dbi).pages();
            }
            return pages * main.pageSize();
        } finally {
            envLock.readLock().unlock();
        }
    }

    /** Bytes of the file up to its last page written: what the map must leave room beyond. */
    private long extent() {
        envLock.readLock().lock();
        try {
            return (env.lastPageNumber() + 1) * (long) env.stat().pageSize();
        } finally {
            envLock.readLock().unlock();
        }
    }

    /**
     * Rewrites the file compactly (etcd's defragment): copies live pages to a new file and swaps
     * it in. Blocks readers and the writer for the duration, as etcd's defrag does.
     */
    public void defragment() {
        envLock.writeLock().lock();
        try {
            beforeDefragCopy.run();
            Path tmp = file.resolveSibling(file.getFileName() + ".defrag");
            Files.deleteIfExists(tmp);
            syncPoint();
            env.copy(tmp, Lmdb.CP_COMPACT);
            swapIn(tmp);
        } catch (IOException | LmdbError e) {
            throw new BackendException("defragment failed: " + e.getMessage(), e);
        } finally {
            envLock.writeLock().unlock();
        }
    }

    /** Runs {@code hook} inside each defragment, with the environment held, before the copy (etcd's failpoint defragBeforeCopy). */
    public void beforeDefragCopy(Runnable hook) {
        this.beforeDefragCopy = hook;
    }

    /**
     * The caller holds {@code envLock} exclusively and the current file is synced. Renames
     * {@code replacement} over the file so that a power cut at any point leaves a whole file: the
     * record of the old file's durable commit goes first (the old file is synced, so it opens as
     * it is), then the replacement is synced, renamed in and the directory synced; the open
     * records the new file's commit.
     */
    private void swapIn(Path replacement) throws IOException {
        closeEnv();
        Fsync.delete(DurableCommit.fileFor(file));
        Fsync.replace(replacement, file);
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + "-lock"));
        openEnv();
    }

    /** Replaces the whole file with {@code source} (a snapshot received from the leader), which is moved in. */
    public void replaceWith(Path source) {
        envLock.writeLock().lock();
        try {
            syncPoint();
            swapIn(source);
        } catch (IOException | LmdbError e) {
            throw new BackendException("cannot install snapshot " + source + ": " + e.getMessage(), e);
        } finally {
            envLock.writeLock().unlock();
        }
    }

    /** Writes a consistent, compacted copy of the whole file to {@code target} (for snapshots). */
    public void copyTo(Path target) {
        envLock.readLock().lock();
        try {
            Files.deleteIfExists(target);
            env.copy(target, Lmdb.CP_COMPACT);
        } catch (IOException | LmdbError e) {
            throw new BackendException("snapshot copy failed: " + e.getMessage(), e);
        } finally {
            envLock.readLock().unlock();
        }
    }

    @Override
    public void close() {
        envLock.writeLock().lock();
        try {
            if (env != null && !env.isClosed()) {
                syncPoint();
                closeEnv();
            }
        } catch (IOException e) {
            throw new BackendException("cannot close backend file " + file + ": " + e.getMessage(), e);
        } finally {
            envLock.writeLock().unlock();
        }
    }

}
