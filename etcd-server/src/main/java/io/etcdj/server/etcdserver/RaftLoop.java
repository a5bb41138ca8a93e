package io.etcdj.server.etcdserver;

import com.google.protobuf.ByteString;
import io.etcdj.raft.MemoryRaftStorage;
import io.etcdj.raft.ProposalDroppedException;
import io.etcdj.raft.RaftRole;
import io.etcdj.raft.RawNode;
import io.etcdj.raft.ReadState;
import io.etcdj.raft.Ready;
import io.etcdj.raft.SnapshotOutOfDateException;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The owner of the Raft node. Each turn (one at a time, see {@link RaftTurns}: on the loop's own
 * thread, or on a transport thread that brings a peer message while the loop waits) runs queued
 * work (proposals, peer messages, calls), ticks once a heartbeat interval has passed on the
 * member's {@link Clock} (the loop's thread only; it waits through the clock, so a test's manual
 * clock decides when it ticks), and handles every Ready in the order the raft package requires:
 * persist (one WAL fsync for the batch), send, hand committed entries to the apply loop, advance
 * (see {@link ReadyOrder} for where a Ready leaves that order).
 * The node runs with asynchronous apply: the apply loop reports what it applied
 * ({@link #appliedTo}) and applies conf changes through the turns, in log order, so
 * Raft never campaigns on a membership the server has not reached. Proposals made while there
 * is no leader are retried each tick and fail with "no leader" after two election timeouts.
 *
 * <p>Any exception escaping the node, the WAL or the snapshotter stops the member (etcd panics
 * there too): a member that cannot persist or whose Raft state is broken must not keep serving.
 * Only a peer's malformed message is dropped, and a client call's failure goes to its future.
 */
final class RaftLoop implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** What the loop tells the rest of the server. */
    interface Listener {
        void leaderChanged(long lead, long term, boolean isLeader);

        void committed(List<Entry> entries, long term);

        /** A snapshot from the leader replaced the log up to its index; the state machines must follow. */
        void snapshotInstalled(Snapshot snapshot);

        void fatal(Throwable t);
    }

    private final RawNode node;
    private final MemoryRaftStorage storage;
    private final Wal wal;
    private final Snapshotter snapshotter;
    private final Failpoints failpoints;
    private final PeerSender peers;
    private final ReadBarrier reads;
    private final Listener listener;
    private final long tickNanos;
    private final long parkLimitNanos;
    /** Every time-based decision of this loop: when to tick, when a parked proposal gives up, read retries. */
    private final Clock clock;
    /** Completes callers' futures, so nothing a caller chained onto them runs on this thread. */
    private final Executor completer;
    private final RaftTurns turns;
    private final PeerMessageBudget peerBudget;
    private final ParkedProposals parked;
    private final Thread thread;
    private volatile boolean running = true;

    private volatile long term;
    private volatile long lead;
    private volatile long commitIndex;
    private volatile long lastIndex;
    private volatile RaftRole role = RaftRole.FOLLOWER;
    /** Written by the apply loop only ({@link #appliedTo}); read by this loop once per turn. */
    private volatile long appliedHint;
    private long appliedTold;
    private HardState lastHardState = HardState.getDefaultInstance();
    /** A new leader became known in this turn: what is parked goes to it now, not at the next tick. */
    private boolean leaderFound;
    /** When the loop's thread ticks next (that thread only). */
    private long nextTick;

    RaftLoop(RawNode node, MemoryRaftStorage storage, Wal wal, Snapshotter snapshotter, PeerSender peers,
             ReadBarrier reads, Listener listener, long tickMillis, long electionMillis, Clock clock,
             Executor completer, Failpoints failpoints, LogSink logs) {
        this.log = logs.logger("etcdserver/raft");
        this.node = node;
        this.failpoints = failpoints;
        this.storage = storage;
        this.wal = wal;
        this.snapshotter = snapshotter;
        this.peers = peers;
        this.reads = reads;
        this.listener = listener;
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
        this.parkLimitNanos = TimeUnit.MILLISECONDS.toNanos(2 * electionMillis);
        this.clock = clock;
        this.turns = new RaftTurns(clock);
        this.peerBudget = new PeerMessageBudget(log);
        this.completer = completer;
        this.parked = new ParkedProposals(node, clock, parkLimitNanos, completer,
                () -> role == RaftRole.FOLLOWER ? lead : 0, peers::reachable);
        this.lastIndex = storage.lastIndex();
        this.thread = new Thread(this::run, "raft");
    }

    void start() {
        thread.start();
    }

    long term() {
        return term;
    }

    long lead() {
        return lead;
    }

    long commitIndex() {
        return commitIndex;
    }

    long lastIndex() {
        return lastIndex;
    }

    boolean isLeader() {
        return role == RaftRole.LEADER;
    }

    /**
     * Proposes an entry; {@code owner} fails with "no leader" if it cannot be proposed in time.
     * {@code callerHoldsNoLocks}: the calling thread holds none of the member's locks (a client's
     * call), so a turn may run on it (see {@link RaftTurns}).
     */
    void propose(ByteString data, CompletableFuture<?> owner, boolean callerHoldsNoLocks) {
        Runnable task = () -> parked.propose(data, null, owner, clock.nanoTime());
        if (callerHoldsNoLocks) {
            turns.submitAndRun(task, this::turnHere);
        } else {
            turns.submit(task);
        }
    }

    /** Proposes a membership change; {@code owner} fails with "no leader" if it cannot be proposed in time. */
    void proposeConfChange(ConfChange cc, CompletableFuture<?> owner) {
        turns.submit(() -> parked.propose(null, cc, owner, clock.nanoTime()));
    }

    /** Runs {@code fn} on the raft thread with the node. */
    <T> CompletableFuture<T> call(Function<RawNode, T> fn) {
        CompletableFuture<T> f = new CompletableFuture<>();
        turns.submit(() -> {
            try {
                T result = fn.apply(node);
                completer.execute(() -> f.complete(result));
            } catch (RuntimeException e) {
                completer.execute(() -> f.completeExceptionally(e));
            }
        });
        return f;
    }

    /** Makes the loop take its next turn now (a read is waiting for a ReadIndex request). */
    void wake() {
        turns.submit(() -> {
        });
    }

    /**
     * Makes the loop take its next turn now, on the caller's thread if the loop waits: a read is
     * waiting for a ReadIndex request, and the caller holds none of the member's locks.
     */
    void wakeHere() {
        turns.submitAndRun(() -> {
        }, this::turnHere);
    }

    /**
     * Steps a peer's messages, in one turn on the caller's thread when the loop waits (see
     * {@link RaftTurns}; the transport's event loop holds none of the member's locks), else queued
     * within the {@link PeerMessageBudget}. Raft tolerates lost messages (the leader resends appends, a
     * forwarded proposal's caller times out). A snapshot is never dropped: its file is already
     * stored, and etcd hands it to Raft outside that buffer too.
     */
    void step(List<Message> messages) {
        for (Message m : messages) {
            if (RawNode.isLocalMessage(m.getType())) {
                log.warn("dropped a peer message of a local-only type", "type", m.getType().name(),
                        "from", Long.toHexString(m.getFrom()));
            } else if (m.getType() == MessageType.MsgSnap) {
                turns.add(() -> node.step(m));
            } else {
                long size = peerBudget.admit(m);
                if (size >= 0) {
                    turns.add(() -> {
                        peerBudget.stepped(size);
                        node.step(m);
                    });
                }
            }
        }
        turns.runHereOrWake(this::turnHere);
    }

    /**
     * Applies a committed conf change to Raft's own configuration. Called by the apply loop in log
     * order; it does not wait, so the apply loop never blocks on this thread.
     */
    void applyConfChange(ConfChange cc) {
        turns.submit(() -> node.applyConfChange(cc));
    }

    /**
     * The apply loop has applied every entry up to {@code index}. Raft hears of it at the start of
     * its next turn (a proposal, a peer message or the next tick), without a wake-up of its own: on
     * a write's path that saves the Raft thread one turn per applied batch. {@code wake} makes the
     * turn happen now; the apply loop asks for it after a conf change, which Raft must count as
     * applied before the next one can be proposed.
     */
    void appliedTo(long index, boolean wake) {
        appliedHint = index;
        if (wake) {
            wake();
        }
    }

    /** The term of log entry {@code index}, or {@code fallback} if it is no longer in the log. Raft thread only. */
    long termAt(long index, long fallback) {
        try {
            return storage.term(index);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    /**
     * Takes a Raft snapshot at {@code index} and compacts the log behind it (keeping {@code keep}
     * entries). The caller has made the backend durable up to {@code index} first, so a restart
     * from this snapshot never finds the backend behind it.
     */
    void snapshot(long index, long keep) {
        turns.submit(() -> {
            ConfState cs = node.status().confState();
            Snapshot snap;
            try {
                snap = storage.createSnapshot(index, cs, new byte[0]);
            } catch (SnapshotOutOfDateException e) {
                return; // a newer snapshot (e.g. from the leader) is already in place
            }
            try {
                snapshotter.save(snap);
                wal.saveSnapshot(new WalSnapshot(index, snap.getMetadata().getTerm(), cs));
                long compactTo = index - keep;
                if (compactTo > storage.firstIndex()) {
                    storage.compact(compactTo);
                }
                wal.releaseLockTo(Math.max(1, compactTo));
            } catch (IOException e) {
                throw new UncheckedIOException("failed to save snapshot at index " + index, e);
            }
            log.info("saved snapshot", "snapshot-index", index);
        });
    }

    /** Moves the Raft clock forward by {@code ticks} ticks at once (etcd's advanceTicks). */
    void advanceTicks(int ticks) {
        turns.submit(() -> node.advanceTicks(ticks));
    }

    private void run() {
        nextTick = clock.nanoTime() + tickNanos;
        try {
            while (running) {
                turns.await(nextTick - clock.nanoTime());
                turns.lock();
                try {
                    turn(true);
                } finally {
                    turns.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            running = false;
            listener.fatal(t);
        }
    }

    /** A turn on the thread that brought the work (see {@link RaftTurns}); it never ticks. */
    private void turnHere() {
        if (!running) {
            return;
        }
        try {
            turn(false);
        } catch (Throwable t) {
            running = false;
            listener.fatal(t);
        }
    }

    /** One turn: queued work, a tick when due (the loop's thread only), ReadIndex requests, every Ready. */
    private void turn(boolean mayTick) throws IOException {
        // Read before the queue is drained: the conf changes the apply loop queued before it
        // wrote this index then run first, so Raft never counts a conf change applied
        // before it has applied it to its configuration.
        long applied = appliedHint;
        turns.drain();
        if (applied > appliedTold) {
            node.appliedTo(applied);
            appliedTold = applied;
        }
        long now = clock.nanoTime();
        if (mayTick && now >= nextTick) {
            node.tick();
            nextTick = now + tickNanos;
            parked.retry();
        }
        long ctx = reads.nextRequest(now, parkLimitNanos / 2);
        if (ctx != ReadBarrier.NO_REQUEST) {
            try {
                node.readIndex(ByteBuffer.allocate(8).putLong(ctx).array());
            } catch (ProposalDroppedException e) {
                // No leader to ask yet: the barrier asks again after its retry interval.
            }
        }
        while (node.hasReady()) {
            handle(node.ready());
        }
        if (leaderFound) {
            leaderFound = false;
            parked.retry();
            while (node.hasReady()) {
                handle(node.ready());
            }
        }
    }

    private void handle(Ready rd) throws IOException {
        boolean applyFirst = ReadyOrder.onlyCommits(rd, term);
        if (applyFirst) {
            if (rd.hardState() != null) {
                commitIndex = rd.hardState().getCommit(); // never behind what the apply reports
            }
            listener.committed(rd.committedEntries(), term);
        }
        if (rd.softState() != null) {
            long newLead = rd.softState().lead();
            role = rd.softState().role();
            if (newLead != lead || rd.hardState() != null) {
                leaderFound |= newLead != 0 && newLead != lead;
                lead = newLead;
            }
        }
        if (rd.hardState() != null) {
            lastHardState = rd.hardState();
        }
        if (rd.snapshot() != null) {
            snapshotter.save(rd.snapshot());
            wal.saveSnapshot(new WalSnapshot(rd.snapshot().getMetadata().getIndex(),
                    rd.snapshot().getMetadata().getTerm(), rd.snapshot().getMetadata().getConfState()));
            storage.applySnapshot(rd.snapshot());
            listener.snapshotInstalled(rd.snapshot());
        }
        boolean sendFirst = ReadyOrder.sendsFirst(rd, role, term, lastIndex);
        if (sendFirst) {
            peers.send(rd.messages());
        }
        failpoints.hit("raftBeforeSave");
        if (rd.hardState() != null || !rd.entries().isEmpty()) {
            wal.save(lastHardState, rd.entries());
        }
        failpoints.hit("raftAfterSave");
        if (rd.hardState() != null) {
            storage.setHardState(rd.hardState());
        }
        if (!rd.entries().isEmpty()) {
            storage.append(rd.entries());
            lastIndex = storage.lastIndex();
        }
        long oldTerm = term;
        term = lastHardState.getTerm();
        commitIndex = lastHardState.getCommit();
        if (rd.softState() != null || term != oldTerm) {
            listener.leaderChanged(lead, term, role == RaftRole.LEADER);
        }
        if (!sendFirst) {
            peers.send(rd.messages());
        }
        failpoints.hit("raftAfterSend");
        for (ReadState rs : rd.readStates()) {
            byte[] c = rs.requestCtx();
            if (c != null && c.length == 8) {
                reads.confirmed(ByteBuffer.wrap(c).getLong(), rs.index());
            }
        }
        if (!applyFirst && !rd.committedEntries().isEmpty()) {
            listener.committed(rd.committedEntries(), term);
        }
        node.advance(rd);
    }


    /** Stops the loop; pending proposals fail with "server stopped". */
    @Override
    public void close() {
        running = false;
        Threads.stop(thread);
        // a turn another thread runs ends before the WAL closes (none starts after: running is
        // false), waited for as long as the loop's thread is
        try {
            if (!turns.awaitNoTurn(Threads.JOIN_MILLIS)) {
                log.warn("a Raft turn did not end before the member closed its WAL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        parked.failAll();
        try {
            wal.close();
        } catch (IOException e) {
            log.warn("failed to close WAL", e);
        }
    }

}
