package io.etcdj.server.etcdserver;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.BackendBatch;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.ChangeEvent;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.wait.Waiters.Done;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Applies committed entries in order on its own thread: one backend transaction per run of
 * entries (the batch commit), then watchers, read barriers and waiting client calls hear about
 * it, and Raft learns the applied index. Entries at or below the consistent index were applied
 * before a restart and are skipped, except that conf changes always reach Raft's configuration.
 *
 * <p>A lightly loaded member skips the hand-off: when nothing handed over earlier is still being
 * applied and the committed batch is a few small puts, the Raft turn that wrote it to the WAL
 * applies it itself ({@link #submit}; on the Raft thread or the thread that ran the turn, see
 * RaftTurns). On a lone client's write that saves the apply thread's wake-up, a kernel round trip
 * and a context switch. Anything that could take long (a range delete, a transaction, a lease
 * revoke, a compaction, a conf change, a snapshot) or a batch past {@value #INLINE_MAX_ENTRIES}
 * entries or {@value #INLINE_MAX_BYTES} bytes still goes to the apply thread, and so does a batch
 * that would have to wait (for the compactor's hold on the key index, a defragment, a snapshot
 * install, the map's growth), so Raft's heartbeats are never held up by an apply. Either way one
 * thread at a time applies and batches are applied in log order: the Raft turns (one at a time),
 * the only ones that hand batches over, apply one themselves only when every batch handed over
 * before has been applied to the end.
 *
 * <p>This thread never waits for the Raft loop (conf changes and the applied index are handed to
 * it without blocking), and never completes a client's future itself. Any exception here stops
 * the member through {@link Hooks#fatal}: half-applied state must not keep serving.
 */
final class ApplyLoop implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    /** A committed batch of at most this many entries may be applied on the Raft thread. */
    static final int INLINE_MAX_ENTRIES = 8;
    /** ... and of at most this many bytes of entry data. */
    static final int INLINE_MAX_BYTES = 64 * 1024;
    /** InternalRaftRequest's fields a put entry carries: id, origin, header, put. */
    private static final long INLINE_FIELDS = 1L << InternalRaftRequest.ID_FIELD_NUMBER | 1L << InternalRaftRequest.ORIGIN_FIELD_NUMBER
            | 1L << InternalRaftRequest.HEADER_FIELD_NUMBER | 1L << InternalRaftRequest.PUT_FIELD_NUMBER;

    /**
     * Committed entries to apply, or (with {@code snapshotFile}) a leader's snapshot to install
     * first, taken at Raft index {@code snapshotIndex}.
     */
    private record Batch(List<Entry> entries, long term, Path snapshotFile, long snapshotIndex) {
    }

    /** Hooks into the rest of the server. */
    interface Hooks {
        /** Applies a conf change to Raft and, if {@code fresh}, to the membership. Must not block. */
        void confChange(ConfChange cc, WriteBatch batch, boolean fresh);

        /**
         * Every entry up to Raft index {@code index} is applied and in the backend; {@code confChange}
         * when a conf change was among them (or a snapshot was installed).
         */
        void applied(long index, boolean confChange);

        /** Applying failed: the member must stop. */
        void fatal(Throwable t);

        /** A write applied past --quota-backend-bytes while no NOSPACE alarm is raised. Must not block. */
        void quotaExceeded();
    }

    private final StateMachines sm;
    private final WatchHub hub;
    private final Waiters<ApplyResult> waiters;
    private final ReadBarrier reads;
    private final long memberId;
    private final Hooks hooks;
    private final Clock clock;
    private final BlockingQueue<Batch> queue;
    /**
     * Batches handed to the apply thread and not yet applied to the end. The apply thread lowers
     * it after a batch's last effect, so a Raft thread that reads 0 sees every write of theirs.
     */
    private final AtomicInteger handedOver = new AtomicInteger();
    private final boolean applyOnRaftThread;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long appliedIndex;
    /** The last Raft index handed to this loop (etcd's committed index, as the server reads it). */
    private volatile long submittedIndex;
    private long consistentIndex;
    /** --warning-apply-duration: applies slower than this are logged. */
    private volatile Duration warnApplyAfter = Duration.ofMillis(100);
    private volatile long syncAfterEntries = BackendBatch.DEFAULT_LIMIT;
    /** Entries applied since this thread last synced the backend (the timer's syncs are not counted). */
    private long unsyncedEntries;
    private final Metrics metrics;
    private final Failpoints failpoints;
    private final SlowApplies slowApplies;

    ApplyLoop(StateMachines sm, WatchHub hub, Waiters<ApplyResult> waiters, ReadBarrier reads, long memberId, Hooks hooks, Clock clock,
              Metrics metrics, Failpoints failpoints, SlowApplies slowApplies, LogSink logs) {
        this(sm, hub, waiters, reads, memberId, hooks, clock, metrics, failpoints, slowApplies, logs, true);
    }

    /** With {@code applyOnRaftThread} false every batch goes to the apply thread (a test's way to compare). */
    ApplyLoop(StateMachines sm, WatchHub hub, Waiters<ApplyResult> waiters, ReadBarrier reads, long memberId, Hooks hooks, Clock clock,
              Metrics metrics, Failpoints failpoints, SlowApplies slowApplies, LogSink logs, boolean applyOnRaftThread) {
        this.log = logs.logger("etcdserver/apply");
        this.applyOnRaftThread = applyOnRaftThread;
        this.sm = sm;
        this.metrics = metrics;
        this.failpoints = failpoints;
        this.slowApplies = slowApplies;
        this.clock = clock;
        this.queue = clock.newQueue();
        this.hub = hub;
        this.waiters = waiters;
        this.reads = reads;
        this.memberId = memberId;
        this.hooks = hooks;
        this.consistentIndex = sm.consistentIndex();
        this.appliedIndex = consistentIndex;
        this.submittedIndex = consistentIndex;
        this.thread = new Thread(this::run, "apply");
    }

    void start() {
        thread.start();
    }

    long appliedIndex() {
        return appliedIndex;
    }

    /** Batches handed to the apply thread and not yet applied to the end: 0 when it is idle. */
    int batchesHandedOver() {
        return handedOver.get();
    }

    /**
     * Entries handed to this loop and not yet applied: etcd refuses new proposals while this
     * passes {@code maxGapBetweenApplyAndCommitIndex}, so the queue stays bounded.
     */
    long backlog() {
        return Math.max(0, submittedIndex - appliedIndex);
    }

    /**
     * Called in a Raft turn only (see RaftTurns). Applies the batch here and now when the apply thread has
     * nothing left to do and the batch is cheap (the class comment); hands it over otherwise.
     * A failure to apply here stops the member as on the apply thread, and is rethrown.
     */
    void submit(List<Entry> entries, long term) {
        if (!entries.isEmpty()) {
            submittedIndex = Math.max(submittedIndex, entries.get(entries.size() - 1).getIndex());
        }
        Batch batch = new Batch(entries, term, null, 0);
        if (applyOnRaftThread && running && handedOver.get() == 0 && cheap(entries)) {
            try {
                if (apply(List.of(batch), false)) {
                    return;
                }
            } catch (RuntimeException | Error t) {
                failed(t);
                throw t;
            }
        }
        handOver(batch);
    }

    /** Installs the backend file of the Raft snapshot at {@code index} before any later entry is applied. In a Raft turn only. */
    void submitSnapshot(Path dbFile, long index) {
        submittedIndex = Math.max(submittedIndex, index);
        handOver(new Batch(List.of(), 0, dbFile, index));
    }

    private void handOver(Batch batch) {
        handedOver.incrementAndGet();
        queue.add(batch);
    }

    /**
     * A batch the Raft thread may apply itself: at most {@value #INLINE_MAX_ENTRIES} normal
     * entries, {@value #INLINE_MAX_BYTES} bytes in all, each a put (its fields read without
     * decoding it; an entry that does not read as a request goes to the apply thread, which stops
     * the member on it).
     */
    static boolean cheap(List<Entry> entries) {
        if (entries.isEmpty() || entries.size() > INLINE_MAX_ENTRIES) {
            return false;
        }
        long bytes = 0;
        for (Entry e : entries) {
            ByteString data = e.getData();
            bytes += data.size();
            if (e.getType() != EntryType.EntryNormal || bytes > INLINE_MAX_BYTES || !onlyPutFields(data)) {
                return false;
            }
        }
        return true;
    }

    private static boolean onlyPutFields(ByteString data) {
        if (data.isEmpty()) {
            return true; // the empty entry a new leader appends: nothing to apply
        }
        try {
            CodedInputStream in = data.newCodedInput();
            boolean put = false;
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                int field = WireFormat.getTagFieldNumber(tag);
                if (field >= Long.SIZE || (INLINE_FIELDS & 1L << field) == 0) {
                    return false;
                }
                put |= field == InternalRaftRequest.PUT_FIELD_NUMBER;
                in.skipField(tag);
            }
            return put;
        } catch (IOException e) {
            return false;
        }
    }

    private void run() {
        try {
            while (running) {
                Batch first = clock.poll(queue, Long.MAX_VALUE);
                if (first.snapshotFile() != null) {
                    install(first.snapshotFile(), first.snapshotIndex());
                    handedOver.decrementAndGet();
                    continue;
                }
                List<Batch> batches = new ArrayList<>();
                batches.add(first);
                while (queue.peek() != null && queue.peek().snapshotFile() == null) {
                    batches.add(queue.poll());
                }
                apply(batches, true);
                handedOver.addAndGet(-batches.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failed(t);
        }
    }

    private void failed(Throwable t) {
        if (running) {
            if (t instanceof CorruptEntryException corrupt) {
                log.fatal("unmarshal should never fail", t, "index", corrupt.index(), "error", String.valueOf(t.getCause()));
            } else {
                log.fatal("failed to apply committed entries; stopping the member", t);
            }
            hooks.fatal(t);
        }
    }

    private void install(Path dbFile, long snapshotIndex) {
        metrics.snapshotApplyInProgress.set(1);
        try {
            sm.installSnapshot(dbFile);
        } finally {
            metrics.snapshotApplyInProgress.set(0);
        }
        consistentIndex = sm.consistentIndex();
        appliedIndex = Math.max(appliedIndex, consistentIndex);
        hub.resyncAll();
        reads.applied(appliedIndex);
        log.info("applied snapshot from leader", "consistent-index", consistentIndex,
                "revision", sm.store.currentRevision());
        hooks.applied(snapshotIndex, true);
    }

    /** --backend-batch-limit: the applied entries after which the backend is synced at once (else on the timer). */
    void syncAfter(long entries) {
        this.syncAfterEntries = entries;
    }

    /** Sets --warning-apply-duration. */
    void warnApplyAfter(Duration threshold) {
        this.warnApplyAfter = threshold;
    }

    /**
     * Applies {@code batches} in one backend transaction. With {@code mayWait} false (the Raft
     * thread) nothing is waited for: when the map would have to grow, or the store or the backend
     * is held (compaction, defragment), nothing is applied and false is returned.
     */
    private boolean apply(List<Batch> batches, boolean mayWait) {
        long bytes = 0;
        for (Batch b : batches) {
            for (Entry e : b.entries()) {
                bytes += e.getData().size();
            }
        }
        WriteBatch wb;
        if (mayWait) {
            sm.backend.ensureRoom(bytes);
            wb = sm.store.openWriteBatch();
        } else {
            wb = sm.backend.hasRoom(bytes) ? sm.store.tryOpenWriteBatch() : null;
            if (wb == null) {
                return false;
            }
        }
        List<Done<ApplyResult>> done = new ArrayList<>();
        long last = appliedIndex;
        long lastTerm = 0;
        long lastEntry = 0;
        boolean overQuota = false;
        boolean confChanged = false;
        try {
            for (Batch b : batches) {
                for (Entry e : b.entries()) {
                    boolean fresh = e.getIndex() > consistentIndex;
                    if (e.getType() == EntryType.EntryConfChange) {
                        failpoints.hit("applyBeforeConfChange");
                        ConfChange cc = parseConfChange(e);
                        confChanged = true;
                        hooks.confChange(cc, wb, fresh);
                        if (fresh && cc.getId() != 0) {
                            done.add(new Done<>(cc.getId(), ApplyResult.ok(null, wb.revision())));
                        }
                    } else if (fresh && !e.getData().isEmpty()) {
                        InternalRaftRequest r = parse(e);
                        long applyStart = System.nanoTime();
                        ApplyResult res = sm.applier.apply(r, wb);
                        slowApplies.check(warnApplyAfter, applyStart, r, res.response(), res.error());
                        if (res.error() != null && res.error().error() == EtcdError.NO_SPACE
                                && !sm.alarms.has(AlarmType.NOSPACE)) {
                            overQuota = true;
                        }
                        if (r.getOrigin() == memberId) {
                            done.add(new Done<>(r.getId(), res));
                        }
                    }
                    last = Math.max(last, e.getIndex());
                    lastTerm = e.getTerm();
                    lastEntry = e.getIndex();
                }
            }
        } catch (RuntimeException | Error t) {
            // Release the write lock and abort the backend transaction, so stopping the member
            // (which closes the backend) cannot wait on them.
            wb.close();
            throw t;
        }
        long commitStart = System.nanoTime();
        List<ChangeEvent> events = wb.commit(last, lastTerm);
        metrics.backendCommit.observeNanos(System.nanoTime() - commitStart);
        failpoints.hit("applyAfterCommit");
        unsyncedEntries += last - appliedIndex;
        if (unsyncedEntries >= syncAfterEntries) {
            sm.backend.sync();
            unsyncedEntries = 0;
        }
        appliedIndex = last;
        hub.notify(events);
        reads.applied(last);
        if (overQuota) {
            hooks.quotaExceeded();
        }
        waiters.completeAll(done);
        hooks.applied(lastEntry, confChanged);
        return true;
    }

    private static ConfChange parseConfChange(Entry e) {
        try {
            return ConfChange.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new CorruptEntryException(e.getIndex(), "conf change", ex);
        }
    }

    /**
     * The entry's request; one that does not decode stops the member (the batch it is in is
     * aborted, so nothing at or after it is applied), never skipped.
     */
    private static InternalRaftRequest parse(Entry e) {
        try {
            return InternalRaftRequest.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new CorruptEntryException(e.getIndex(), "entry", ex);
        }
    }

    static Member parseMember(byte[] b) {
        try {
            return Member.parseFrom(b);
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
    }

    @Override
    public void close() {
        running = false;
        Threads.stop(thread);
    }
}
