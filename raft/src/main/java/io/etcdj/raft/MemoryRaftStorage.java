package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RaftStorage} held in memory. The server keeps one as a mirror of its WAL and snapshot
 * files, so the core reads the log without touching disk. Methods are synchronized because the
 * apply side creates snapshots and compacts while the Raft loop reads.
 */
public final class MemoryRaftStorage implements RaftStorage {
    private HardState hardState = HardState.getDefaultInstance();
    private Snapshot snapshot = Snapshot.newBuilder().setMetadata(SnapshotMetadata.getDefaultInstance()).build();
    /** Membership to restart with: the snapshot's unless the driver recorded a later applied one. */
    private ConfState confState = ConfState.getDefaultInstance();
    /** entries.get(0) is a placeholder carrying the snapshot's index and term. */
    private List<Entry> entries = new ArrayList<>(List.of(Entry.getDefaultInstance()));

    @Override
    public synchronized InitialState initialState() {
        return new InitialState(hardState, confState);
    }

    public synchronized void setHardState(HardState state) {
        this.hardState = state;
    }

    /**
     * Records the membership in force at the index the driver will pass as
     * {@link RaftConfig#applied()} on restart. Optional: without it a restart uses the snapshot's
     * membership and rebuilds later changes by re-applying the replayed conf change entries.
     * Snapshots themselves keep the membership of their own index.
     */
    public synchronized void setConfState(ConfState state) {
        this.confState = state;
    }

    @Override
    public synchronized List<Entry> entries(long lo, long hi, long maxSize) {
        long offset = offset();
        if (lo <= offset) {
            throw new CompactedException(lo, offset + 1);
        }
        if (hi > lastIndexLocked() + 1) {
            throw new IllegalArgumentException("entries' hi(" + hi + ") is out of bound lastindex(" + lastIndexLocked() + ")");
        }
        if (entries.size() == 1) {
            throw new UnavailableException(lo, lastIndexLocked());
        }
        return RaftLog.limitSize(entries.subList((int) (lo - offset), (int) (hi - offset)), maxSize);
    }

    @Override
    public synchronized long term(long i) {
        long offset = offset();
        if (i < offset) {
            throw new CompactedException(i, offset + 1);
        }
        if (i - offset >= entries.size()) {
            throw new UnavailableException(i, lastIndexLocked());
        }
        return entries.get((int) (i - offset)).getTerm();
    }

    @Override
    public synchronized long firstIndex() {
        return offset() + 1;
    }

    @Override
    public synchronized long lastIndex() {
        return lastIndexLocked();
    }

    @Override
    public synchronized Snapshot snapshot() {
        return snapshot;
    }

    /** Replaces the whole log with a snapshot received from the leader. */
    public synchronized void applySnapshot(Snapshot snap) {
        long current = snapshot.getMetadata().getIndex();
        long offered = snap.getMetadata().getIndex();
        if (current >= offered) {
            throw new SnapshotOutOfDateException(offered, current);
        }
        snapshot = snap;
        confState = snap.getMetadata().getConfState();
        entries = new ArrayList<>(List.of(Entry.newBuilder().setIndex(offered).setTerm(snap.getMetadata().getTerm()).build()));
    }

    /** Makes a snapshot of the application state at {@code index} (which must be applied) and keeps it. */
    public synchronized Snapshot createSnapshot(long index, ConfState confState, byte[] data) {
        long current = snapshot.getMetadata().getIndex();
        if (index <= current) {
            throw new SnapshotOutOfDateException(index, current);
        }
        if (index > lastIndexLocked()) {
            throw new IllegalArgumentException("snapshot index " + index + " is out of bound lastindex(" + lastIndexLocked() + ")");
        }
        long term = entries.get((int) (index - offset())).getTerm();
        SnapshotMetadata.Builder md = SnapshotMetadata.newBuilder().setIndex(index).setTerm(term);
        if (confState != null) {
            md.setConfState(confState);
            this.confState = confState;
        }
        snapshot = Snapshot.newBuilder().setMetadata(md).setData(ByteString.copyFrom(data)).build();
        return snapshot;
    }

    /** Drops entries up to and including {@code index}; a snapshot at or after it must exist. */
    public synchronized void compact(long index) {
        long offset = offset();
        if (index <= offset) {
            throw new CompactedException(index, offset + 1);
        }
        if (index > lastIndexLocked()) {
            throw new IllegalArgumentException("compact " + index + " is out of bound lastindex(" + lastIndexLocked() + ")");
        }
        int i = (int) (index - offset);
        List<Entry> kept = new ArrayList<>(entries.size() - i);
        kept.add(Entry.newBuilder().setIndex(index).setTerm(entries.get(i).getTerm()).build());
        kept.addAll(entries.subList(i + 1, entries.size()));
        entries = kept;
    }

    /**
     * Appends entries made durable by the driver. Entries overlapping the held log replace it from
     * the first overlapping index on (a new leader may overwrite an uncommitted tail).
     */
    public synchronized void append(List<Entry> ents) {
        if (ents.isEmpty()) {
            return;
        }
        long first = offset() + 1;
        long last = ents.get(0).getIndex() + ents.size() - 1;
        if (last < first) {
            return;
        }
        if (first > ents.get(0).getIndex()) {
            ents = ents.subList((int) (first - ents.get(0).getIndex()), ents.size());
        }
        long at = ents.get(0).getIndex() - offset();
        if (entries.size() > at) {
            entries = new ArrayList<>(entries.subList(0, (int) at));
            entries.addAll(ents);
        } else if (entries.size() == at) {
            entries.addAll(ents);
        } else {
            throw new IllegalStateException("missing log entry [last: " + lastIndexLocked() + ", append at: " + ents.get(0).getIndex()
                    + "]");
        }
    }

    private long offset() {
        return entries.get(0).getIndex();
    }

    private long lastIndexLocked() {
        return offset() + entries.size() - 1;
    }
}
