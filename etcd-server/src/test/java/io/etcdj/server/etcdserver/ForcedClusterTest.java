package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --force-new-cluster as etcd rewrites the log: committed entries kept, every other member removed. */
class ForcedClusterTest {
    private static final long SELF = 0xa;

    @Test
    void dropsTheUncommittedTailAndRemovesEveryOtherMember() throws Exception {
        List<Entry> log = new ArrayList<>(List.of(
                conf(1, ConfChangeType.ConfChangeAddNode, 0xa),
                conf(2, ConfChangeType.ConfChangeAddNode, 0xb),
                conf(3, ConfChangeType.ConfChangeAddNode, 0xc),
                data(4), data(5), data(6)));
        HardState hs = HardState.newBuilder().setTerm(3).setVote(0xb).setCommit(5).build();
        ForcedCluster forced = ForcedCluster.of(SELF, null, hs, log);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), forced.entries().stream().map(Entry::getIndex).toList(),
                "entry 6 was not committed: dropped; two removals appended after 5");
        assertEquals(List.of("ConfChangeRemoveNode b", "ConfChangeRemoveNode c"), describe(forced.appended()));
        assertEquals(7, forced.hardState().getCommit(), "the appended removals are committed");
        assertEquals(3, forced.hardState().getTerm());
        assertEquals(3, forced.appended().get(0).getTerm(), "appended at the current term");
    }

    @Test
    void membersFromTheSnapshotAndLaterChangesCount() throws Exception {
        Snapshot snap = Snapshot.newBuilder().setMetadata(SnapshotMetadata.newBuilder().setIndex(10).setTerm(2)
                .setConfState(ConfState.newBuilder().addVoters(0xa).addVoters(0xb).addLearners(0xd))).build();
        List<Entry> log = List.of(conf(11, ConfChangeType.ConfChangeRemoveNode, 0xb), data(12));
        HardState hs = HardState.newBuilder().setTerm(2).setCommit(12).build();
        ForcedCluster forced = ForcedCluster.of(SELF, snap, hs, log);
        assertEquals(List.of("ConfChangeRemoveNode d"), describe(forced.appended()), "the learner goes too; b already left");
        assertEquals(13, forced.appended().get(0).getIndex());
    }

    @Test
    void aMemberMissingFromTheConfigurationIsAddedBack() throws Exception {
        List<Entry> log = List.of(conf(1, ConfChangeType.ConfChangeAddNode, 0xb));
        ForcedCluster forced = ForcedCluster.of(SELF, null, HardState.newBuilder().setTerm(1).setCommit(1).build(), log);
        assertEquals(List.of("ConfChangeRemoveNode b", "ConfChangeAddNode a"), describe(forced.appended()));
    }

    private static List<String> describe(List<Entry> entries) throws InvalidProtocolBufferException {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            ConfChange cc = ConfChange.parseFrom(e.getData());
            out.add(cc.getType() + " " + Long.toHexString(cc.getNodeId()));
        }
        return out;
    }

    private static Entry conf(long index, ConfChangeType type, long node) {
        return Entry.newBuilder().setIndex(index).setTerm(1).setType(EntryType.EntryConfChange)
                .setData(ConfChange.newBuilder().setType(type).setNodeId(node).build().toByteString()).build();
    }

    private static Entry data(long index) {
        return Entry.newBuilder().setIndex(index).setTerm(1).setType(EntryType.EntryNormal).build();
    }
}
