package io.etcdj.server.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * A test driver for one node: a RawNode over a MemoryRaftStorage plus a trivial state machine
 * (the list of applied entries). It follows the Ready contract exactly like the server does.
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

    TestNode(long id, long seed, UnaryOperator<RaftConfig.Builder> configurer) {
        this.id = id;
        this.storage = new MemoryRaftStorage();
        this.configurer = configurer;
        this.random = new Random(seed * 1_000_003L + id);
        this.node = RawNode.create(config(0), storage);
    }

    private RaftConfig config(long appliedAt) {
        return configurer.apply(RaftConfig.builder().id(id).random(random).applied(appliedAt)).build();
    }

    /** Loses all volatile state and starts again from storage, as after a crash. */
    void restart() {
        long snapIndex = storage.snapshot().getMetadata().getIndex();
        confState = storage.snapshot().getMetadata().getConfState();
        appliedIndex = snapIndex;
        applied.clear();
        readStates.clear();
        node = RawNode.create(config(snapIndex), storage);
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
            // 3. apply
            if (rd.snapshot() != null) {
                long index = rd.snapshot().getMetadata().getIndex();
                applied.clear();
                appliedIndex = index;
                confState = rd.snapshot().getMetadata().getConfState();
                if (listener != null) {
                    listener.snapshotInstalled(id, index, rd.snapshot().getMetadata().getTerm());
                }
            }
            for (Entry e : rd.committedEntries()) {
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
            readStates.addAll(rd.readStates());
            // 4. advance
            node.advance(rd);
        }
        return out;
    }

    /** Makes a snapshot at the applied index and compacts the log behind it, keeping {@code keep} entries. */
    void snapshotAndCompact(long keep) {
        long snapIndex = storage.snapshot().getMetadata().getIndex();
        if (appliedIndex <= snapIndex) {
            return;
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
