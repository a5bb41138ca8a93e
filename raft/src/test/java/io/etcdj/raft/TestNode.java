package io.etcdj.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * A test driver for one node: a RawNode over a MemoryRaftStorage plus a trivial state machine
 * (the list of applied entries). It follows the Ready contract exactly like the server does.
 *
 * <p>With {@link RaftConfig#asyncApply()} it drives the node the way the server does: a Ready's
 * committed entries are only queued, and applied later by {@link #applyPending} (conf changes
 * through {@code applyConfChange}, then {@code appliedTo}); the state machine's durable copy (the
 * server's backend) is written by {@link #persistApplied}, and a crash loses what came after it.
 * A restart resumes from the persisted log and that durable copy through {@link RestartPoint},
 * as the server does.
 */
final class TestNode {
    /** Observes applied entries and snapshots (the simulation checks state-machine safety there). */
    interface ApplyListener {
        void applied(long node, Entry e);

        void snapshotInstalled(long node, long index, long term);
    }

    final long id;
    final MemoryRaftStorage storage;
    private final UnaryOperator<RaftConfig.Builder> configurer;
    private final Random random;
    RawNode node;
    /** Index of the last applied entry (or installed snapshot). */
    long appliedIndex;
    /** Applied normal entries with data, in order (only those after the last snapshot restore). */
    final List<Entry> applied = new ArrayList<>();
    final List<ReadState> readStates = new ArrayList<>();
    ConfState confState = ConfState.getDefaultInstance();
    ApplyListener listener;
    private final boolean async;
    /** Async mode: entries (and snapshots) handed out by Readys and not applied yet. */
    private final ArrayDeque<Object> toApply = new ArrayDeque<>();
    /** Async mode: the durable state machine (the server's backend): consistent index and data. */
    private long durableIndex;
    private List<Entry> durableApplied = List.of();

    TestNode(long id, long seed, UnaryOperator<RaftConfig.Builder> configurer) {
        this.id = id;
        this.storage = new MemoryRaftStorage();
        this.configurer = configurer;
        this.random = new Random(seed * 1_000_003L + id);
        this.node = RawNode.create(config(0), storage);
        this.async = config(0).asyncApply();
    }

    private RaftConfig config(long appliedAt) {
        return configurer.apply(RaftConfig.builder().id(id).random(random).applied(appliedAt)).build();
    }

    /** Loses all volatile state and starts again from storage, as after a crash. */
    void restart() {
        toApply.clear();
        readStates.clear();
        Snapshot snap = storage.snapshot();
        long snapIndex = snap.getMetadata().getIndex();
        long consistentIndex;
        if (async) {
            if (durableIndex < snapIndex) {
                // The server installs the snapshot's database file kept since its arrival.
                durableIndex = snapIndex;
                durableApplied = List.of();
            }
            consistentIndex = durableIndex;
        } else {
            // A synchronous test state machine keeps nothing: it is rebuilt from the snapshot on.
            consistentIndex = snapIndex;
        }
        long last = storage.lastIndex();
        List<Entry> log = last > snapIndex ? storage.entries(snapIndex + 1, last + 1, Long.MAX_VALUE) : List.of();
        RestartPoint at = RestartPoint.of(snapIndex == 0 ? null : snap, storage.initialState().hardState(), log,
                consistentIndex);
        storage.setConfState(at.confState());
        confState = at.confState();
        appliedIndex = at.applied();
        applied.clear();
        if (async) {
            // This driver persists the hard state with every Ready, so Raft resumes exactly at the
            // durable copy (the server may resume below it; RestartPointTest covers that).
            if (at.applied() != durableIndex) {
                throw new AssertionError("node " + id + " resumes at " + at.applied() + " but its state is at " + durableIndex);
            }
            applied.addAll(durableApplied);
        }
        node = RawNode.create(config(at.applied()), storage);
    }

    /** Async mode: applies up to {@code max} queued entries (or a snapshot) and reports them to the node. */
    void applyPending(int max) {
        if (toApply.isEmpty()) {
            return;
        }
        for (int i = 0; i < max && !toApply.isEmpty(); i++) {
            Object next = toApply.poll();
            if (next instanceof Snapshot snap) {
                installSnapshot(snap);
                durableIndex = appliedIndex;
                durableApplied = List.of();
            } else {
                applyEntry((Entry) next);
            }
        }
        node.appliedTo(appliedIndex);
    }

    /** Async mode: makes the state machine durable up to what it applied (the server's backend sync). */
    void persistApplied() {
        durableIndex = appliedIndex;
        durableApplied = List.copyOf(applied);
    }

    boolean hasPendingApply() {
        return !toApply.isEmpty();
    }

    Status status() {
        return node.status();
    }

    boolean isLeader() {
        return node.status().role() == RaftRole.LEADER;
    }

    /** Handles every pending Ready; returns the messages to send. */
    List<Message> processReady() {
        List<Message> out = new ArrayList<>();
        while (node.hasReady()) {
            Ready rd = node.ready();
            // 1. persist
            if (rd.snapshot() != null) {
                storage.applySnapshot(rd.snapshot());
            }
            storage.append(rd.entries());
            if (rd.hardState() != null) {
                storage.setHardState(rd.hardState());
            }
            // 2. send
            out.addAll(rd.messages());
            // 3. apply (async mode: hand over, applied later by applyPending)
            if (rd.snapshot() != null) {
                if (async) {
                    toApply.add(rd.snapshot());
                } else {
                    installSnapshot(rd.snapshot());
                }
            }
            for (Entry e : rd.committedEntries()) {
                if (async) {
                    toApply.add(e);
                } else {
                    applyEntry(e);
                }
            }
            readStates.addAll(rd.readStates());
            // 4. advance
            node.advance(rd);
        }
        return out;
    }

    private void installSnapshot(Snapshot snap) {
        long index = snap.getMetadata().getIndex();
        applied.clear();
        appliedIndex = index;
        confState = snap.getMetadata().getConfState();
        if (listener != null) {
            listener.snapshotInstalled(id, index, snap.getMetadata().getTerm());
        }
    }

    private void applyEntry(Entry e) {
        if (e.getIndex() != appliedIndex + 1) {
            throw new AssertionError("node " + id + " applies index " + e.getIndex() + " after " + appliedIndex);
        }
        appliedIndex = e.getIndex();
        if (e.getType() == EntryType.EntryConfChange) {
            confState = node.applyConfChange(parse(e));
        } else if (!e.getData().isEmpty()) {
            applied.add(e);
        }
        if (listener != null) {
            listener.applied(id, e);
        }
    }

    /** Makes a snapshot at the applied index and compacts the log behind it, keeping {@code keep} entries. */
    void snapshotAndCompact(long keep) {
        long snapIndex = storage.snapshot().getMetadata().getIndex();
        if (appliedIndex <= snapIndex) {
            return;
        }
        if (async) {
            // As the server: the backend is made durable before the snapshot that relies on it.
            persistApplied();
        }
        storage.createSnapshot(appliedIndex, confState, new byte[] {1});
        long compactTo = appliedIndex - keep;
        if (compactTo > snapIndex) {
            storage.compact(compactTo);
        }
    }

    List<String> appliedData() {
        List<String> out = new ArrayList<>();
        for (Entry e : applied) {
            out.add(e.getData().toStringUtf8());
        }
        return out;
    }

    static ConfChange parse(Entry e) {
        try {
            return ConfChange.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new AssertionError(ex);
        }
    }
}
