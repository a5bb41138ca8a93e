package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The apply loop's contract with the rest of the member: what it reports, and that it never half-fails. */
class ApplyLoopTest {
    private static final long MEMBER = 0x10;

    @TempDir
    Path dir;
    private StateMachines sm;
    private WatchHub hub;
    private ExecutorService completer;
    private final LinkedBlockingQueue<Long> appliedReports = new LinkedBlockingQueue<>();
    /** Whether each report said a conf change was among the entries (Raft is woken for those only). */
    private final List<Boolean> confChangeFlags = new CopyOnWriteArrayList<>();
    private final List<ConfChange> confChanges = new CopyOnWriteArrayList<>();
    /** The thread each applied report came from. */
    private final List<String> appliedOn = new CopyOnWriteArrayList<>();
    /** Holds the thread applying a conf change until counted down (a test's way to keep a batch in progress). */
    private volatile CountDownLatch confChangeGate = new CountDownLatch(0);
    private final CompletableFuture<Throwable> fatal = new CompletableFuture<>();
    private final AtomicInteger fatalCalls = new AtomicInteger();
    private ApplyLoop loop;
    /** The member's log lines: the loop is given a sink of its own, as each member is. */
    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private final LogSink logs = LogSink.to(logLines::add);
    private Waiters<ApplyResult> waiters;

    private final LinkedBlockingQueue<Boolean> quotaReports = new LinkedBlockingQueue<>();

    @BeforeEach
    void open() {
        sm = StateMachines.open(dir.resolve("db"), 64L << 20, System::nanoTime, 2);
        hub = new WatchHub(sm.store);
        completer = Executors.newSingleThreadExecutor(r -> new Thread(r, "completer"));
        waiters = new Waiters<>(completer);
        loop = new ApplyLoop(sm, hub, waiters, new ReadBarrier(completer), MEMBER, new ApplyLoop.Hooks() {
            @Override
            public void confChange(ConfChange cc, WriteBatch batch, boolean fresh) {
                confChanges.add(cc);
                try {
                    confChangeGate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void applied(long index, boolean confChange) {
                confChangeFlags.add(confChange);
                appliedOn.add(Thread.currentThread().getName());
                appliedReports.add(index);
            }

            @Override
            public void fatal(Throwable t) {
                fatalCalls.incrementAndGet();
                fatal.complete(t);
            }

            @Override
            public void quotaExceeded() {
                quotaReports.add(true);
            }
        }, Clock.SYSTEM, new Metrics(), Failpoints.NONE, new SlowApplies(new Metrics(), logs), logs);
        loop.start();
    }

    @Test
    void aWritePastTheQuotaIsAppliedAnsweredNoSpaceAndReported() throws Exception {
        loop.close();
        hub.close();
        sm.close();
        sm = StateMachines.open(dir.resolve("small-db"), 1, System::nanoTime, 2);
        hub = new WatchHub(sm.store);
        loop = new ApplyLoop(sm, hub, waiters, new ReadBarrier(completer), MEMBER, new ApplyLoop.Hooks() {
            @Override
            public void confChange(ConfChange cc, WriteBatch batch, boolean fresh) {
            }

            @Override
            public void applied(long index, boolean confChange) {
                appliedReports.add(index);
            }

            @Override
            public void fatal(Throwable t) {
                fatal.complete(t);
            }

            @Override
            public void quotaExceeded() {
                quotaReports.add(true);
            }
        }, Clock.SYSTEM, new Metrics(), Failpoints.NONE, new SlowApplies(new Metrics(), logs), logs);
        loop.start();
        CompletableFuture<ApplyResult> call = waiters.register(3);
        loop.submit(List.of(put(1, 3, "big")), 2);
        ApplyResult res = call.get(10, TimeUnit.SECONDS);
        assertNotNull(res.error());
        assertEquals("etcdserver: mvcc: database space exceeded", res.error().getMessage());
        assertEquals(Boolean.TRUE, quotaReports.poll(10, TimeUnit.SECONDS));
        try (WriteBatch b = sm.store.openWriteBatch()) {
            assertEquals(2L, b.revision(), "applied on every member alike, as etcd's quota stage does");
        }
    }

    @AfterEach
    void close() {
        loop.close();
        hub.close();
        completer.shutdownNow();
        sm.close();
    }

    private static Entry put(long index, long id, String key) {
        InternalRaftRequest r = InternalRaftRequest.newBuilder().setId(id).setOrigin(MEMBER)
                .setPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8("v")))
                .build();
        return Entry.newBuilder().setIndex(index).setTerm(2).setData(r.toByteString()).build();
    }

    @Test
    void reportsTheRaftIndexOfWhatItAppliedAndCompletesCallersOffItsThread() throws Exception {
        CompletableFuture<ApplyResult> call = waiters.register(7);
        CompletableFuture<String> completedOn = call.thenApply(r -> Thread.currentThread().getName());
        ConfChange cc = ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(MEMBER).build();
        loop.submit(List.of(
                Entry.newBuilder().setIndex(1).setTerm(1).setType(EntryType.EntryConfChange).setData(cc.toByteString()).build(),
                put(2, 7, "a")), 2);
        assertEquals(2L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of(cc), confChanges);
        assertEquals("completer", completedOn.get(10, TimeUnit.SECONDS));
        assertEquals(2, loop.appliedIndex());

        loop.submit(List.of(put(3, 8, "b")), 2);
        assertEquals(3L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of(true, false), confChangeFlags, "only the batch with the conf change asks to wake Raft");
    }

    @Test
    void aFailureStopsTheMemberAndReleasesTheStore() throws Exception {
        Entry corrupt = Entry.newBuilder().setIndex(2).setTerm(1).setType(EntryType.EntryConfChange)
                .setData(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff})).build();
        loop.submit(List.of(put(1, 1, "before"), corrupt), 1);
        Throwable t = fatal.get(10, TimeUnit.SECONDS);
        assertNotNull(t);
        assertTrue(String.valueOf(t).contains("committed conf change at index 2 cannot be decoded"), String.valueOf(t));
        // The half-applied batch was abandoned: the store's write lock is free and nothing of it is visible.
        CompletableFuture<Long> rev = CompletableFuture.supplyAsync(() -> {
            try (WriteBatch b = sm.store.openWriteBatch()) {
                return b.revision();
            }
        });
        assertEquals(1L, rev.get(10, TimeUnit.SECONDS));
        assertTrue(appliedReports.isEmpty(), "nothing reported applied");
    }

    /**
     * etcd panics on a committed entry it cannot unmarshal: skipping it would make this member's
     * state differ from the others' for good. Here the member is stopped once, with a fatal line
     * naming the index and the cause, and nothing at or after the entry is applied.
     */
    @Test
    void anUnreadableEntryStopsTheMemberOnceAndNothingAfterItIsApplied() throws Exception {
        Entry unreadable = Entry.newBuilder().setIndex(2).setTerm(1)
                .setData(ByteString.copyFrom(new byte[] {(byte) 0x0a, (byte) 0xff})).build();
        loop.submit(List.of(put(1, 1, "before"), unreadable), 1);
        loop.submit(List.of(put(3, 3, "after")), 1);
        Throwable t = fatal.get(10, TimeUnit.SECONDS);
        assertTrue(String.valueOf(t).contains("committed entry at index 2 cannot be decoded"), String.valueOf(t));
        loop.submit(List.of(put(4, 4, "later")), 1);
        Thread.sleep(200); // room for a wrongly running loop to apply it; the assertions below must hold
        assertEquals(1, fatalCalls.get(), "stopped exactly once");
        assertTrue(appliedReports.isEmpty(), "nothing reported applied");
        assertEquals(0, loop.appliedIndex());
        CompletableFuture<Long> rev = CompletableFuture.supplyAsync(() -> {
            try (WriteBatch b = sm.store.openWriteBatch()) {
                return b.revision();
            }
        });
        assertEquals(1L, rev.get(10, TimeUnit.SECONDS), "no key of the batch or after it is in the store");
        List<String> fatalLines = logLines.stream()
                .filter(l -> l.startsWith("{\"level\":\"fatal\"")).toList();
        assertEquals(1, fatalLines.size(), "one fatal line: " + fatalLines);
        var line = new ObjectMapper().readTree(fatalLines.get(0));
        assertEquals("unmarshal should never fail", line.get("msg").asText());
        assertEquals(2, line.get("index").asLong());
        assertTrue(line.get("error").asText().contains("InvalidProtocolBufferException"), line.toString());
        assertTrue(line.get("stacktrace").asText().contains("at io.etcdj.server.etcdserver.ApplyLoop.parse"), line.toString());
    }

    /** A lone client's put, the common case on a lightly loaded member: applied in the Raft thread's turn, no hand-off. */
    @Test
    void aFewPutsAreAppliedOnTheRaftThreadBeforeSubmitReturns() {
        CompletableFuture<ApplyResult> call = waiters.register(5);
        loop.submit(List.of(put(1, 5, "a"), put(2, 6, "b")), 2);
        assertEquals(2, loop.appliedIndex(), "applied when submit returned");
        assertEquals(List.of(Thread.currentThread().getName()), appliedOn);
        assertEquals(2L, call.join().revision(), "the call is answered with the revision of its put");
        try (WriteBatch b = sm.store.openWriteBatch()) {
            assertEquals(3L, b.revision());
        }
    }

    /** What may take long (here a range delete; also transactions, lease revokes, compactions) never holds up Raft's turn. */
    @Test
    void aBatchThatMayTakeLongGoesToTheApplyThread() throws Exception {
        InternalRaftRequest delete = InternalRaftRequest.newBuilder().setId(9).setOrigin(MEMBER)
                .setDeleteRange(DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("a"))
                        .setRangeEnd(ByteString.copyFrom(new byte[] {0})))
                .build();
        loop.submit(List.of(put(1, 1, "a"), Entry.newBuilder().setIndex(2).setTerm(2).setData(delete.toByteString()).build()), 2);
        assertEquals(2L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of("apply"), appliedOn);
        List<Entry> many = new ArrayList<>();
        for (int i = 0; i <= ApplyLoop.INLINE_MAX_ENTRIES; i++) {
            many.add(put(3 + i, 100 + i, "k" + i));
        }
        loop.submit(many, 2);
        assertEquals(3L + ApplyLoop.INLINE_MAX_ENTRIES, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of("apply", "apply"), appliedOn, "a batch past the size limit is handed over too");
    }

    /** While a batch handed over is still being applied, a cheap one behind it waits its turn on the apply thread. */
    @Test
    void nothingOvertakesABatchStillBeingApplied() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        confChangeGate = gate;
        ConfChange cc = ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(MEMBER).build();
        loop.submit(List.of(Entry.newBuilder().setIndex(1).setTerm(1).setType(EntryType.EntryConfChange)
                .setData(cc.toByteString()).build()), 2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (confChanges.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(List.of(cc), confChanges, "the apply thread is applying the conf change");
        loop.submit(List.of(put(2, 2, "behind")), 2);
        assertEquals(0, loop.appliedIndex(), "the put did not overtake the conf change");
        assertTrue(appliedReports.isEmpty());
        gate.countDown();
        assertEquals(1L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(2L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of("apply", "apply"), appliedOn);
        // the thread reports a batch applied before it counts it done: wait for the count
        long idleBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (loop.batchesHandedOver() != 0 && System.nanoTime() < idleBy) {
            Thread.onSpinWait();
        }
        assertEquals(0, loop.batchesHandedOver());
        loop.submit(List.of(put(3, 3, "after")), 2);
        assertEquals(3, loop.appliedIndex(), "once the apply thread is idle again, the Raft thread applies a put itself");
    }

    @Test
    void onlyBatchesOfAFewPutsAreCheap() {
        assertTrue(ApplyLoop.cheap(List.of(put(1, 1, "a"))));
        assertTrue(ApplyLoop.cheap(List.of(Entry.newBuilder().setIndex(1).setTerm(2).build())), "a new leader's empty entry");
        assertFalse(ApplyLoop.cheap(List.of()));
        InternalRaftRequest txn = InternalRaftRequest.newBuilder().setId(1)
                .setTxn(TxnRequest.getDefaultInstance()).build();
        assertFalse(ApplyLoop.cheap(List.of(Entry.newBuilder().setIndex(1).setTerm(2).setData(txn.toByteString()).build())));
        Entry hugePut = Entry.newBuilder().setIndex(1).setTerm(2).setData(InternalRaftRequest.newBuilder()
                .setPut(PutRequest.newBuilder().setValue(ByteString.copyFrom(new byte[ApplyLoop.INLINE_MAX_BYTES]))).build()
                .toByteString()).build();
        assertFalse(ApplyLoop.cheap(List.of(hugePut)));
    }

    /** The compactor holding the key index (or a defragment the backend): the Raft thread does not wait, the apply thread does. */
    @Test
    void aPutTheStoreCannotTakeAtOnceIsHandedOverInsteadOfWaitedFor() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            try (WriteBatch b = sm.store.openWriteBatch()) {
                held.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        holder.start();
        assertTrue(held.await(10, TimeUnit.SECONDS));
        CompletableFuture<Void> submitted = CompletableFuture.runAsync(() -> loop.submit(List.of(put(1, 1, "a")), 2));
        submitted.get(10, TimeUnit.SECONDS); // returns while the store is still held
        assertEquals(0, loop.appliedIndex());
        release.countDown();
        assertEquals(1L, appliedReports.poll(10, TimeUnit.SECONDS));
        assertEquals(List.of("apply"), appliedOn);
        holder.join(10_000);
    }
}
