package io.etcdj.server.etcdserver;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * --force-new-cluster, as etcd does it: drop the uncommitted tail of the log, then append
 * committed conf changes that remove every other member (and add this one if needed), so the
 * member restarts as a one-member cluster with all its data.
 */
record ForcedCluster(HardState hardState, List<Entry> entries, List<Entry> appended) {

    static ForcedCluster of(long self, Snapshot snap, HardState hs, List<Entry> log) {
        List<Entry> committed = new ArrayList<>();
        for (Entry e : log) {
            if (e.getIndex() <= hs.getCommit()) {
                committed.add(e);
            }
        }
        Set<Long> ids = new TreeSet<>(Long::compareUnsigned);
        if (snap != null) {
            ids.addAll(snap.getMetadata().getConfState().getVotersList());
            ids.addAll(snap.getMetadata().getConfState().getLearnersList());
        }
        for (Entry e : committed) {
            if (e.getType() != EntryType.EntryConfChange) {
                continue;
            }
            ConfChange cc = parse(e);
            switch (cc.getType()) {
                case ConfChangeAddNode, ConfChangeAddLearnerNode -> ids.add(cc.getNodeId());
                case ConfChangeRemoveNode -> ids.remove(cc.getNodeId());
                default -> {
                }
            }
        }
        long index = committed.isEmpty() ? (snap == null ? 0 : snap.getMetadata().getIndex())
                : committed.get(committed.size() - 1).getIndex();
        List<Entry> appended = new ArrayList<>();
        for (long id : ids) {
            if (id != self) {
                appended.add(confChange(ConfChangeType.ConfChangeRemoveNode, id, hs.getTerm(), ++index));
            }
        }
        if (!ids.contains(self)) {
            appended.add(confChange(ConfChangeType.ConfChangeAddNode, self, hs.getTerm(), ++index));
        }
        List<Entry> all = new ArrayList<>(committed);
        all.addAll(appended);
        HardState forced = hs.toBuilder().setCommit(index).build();
        return new ForcedCluster(forced, all, appended);
    }

    private static Entry confChange(ConfChangeType type, long id, long term, long index) {
        ConfChange cc = ConfChange.newBuilder().setType(type).setNodeId(id).build();
        return Entry.newBuilder().setType(EntryType.EntryConfChange).setTerm(term).setIndex(index)
                .setData(cc.toByteString()).build();
    }

    private static ConfChange parse(Entry e) {
        try {
            return ConfChange.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new IllegalStateException("corrupt conf change at index " + e.getIndex(), ex);
        }
    }
}
