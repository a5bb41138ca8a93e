package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * A member restarting with committed conf changes must never act on a partial membership. The
 * case that lost acknowledged writes: the member with the lowest ID restarted without a snapshot,
 * re-applied the bootstrap conf changes one at a time on its apply thread, and after the first
 * one (itself) elected itself as the only voter, in a term another member already led.
 */
class RestartMembershipTest {

    private static Entry confEntry(long index, long term, ConfChangeType type, long node) {
        ConfChange cc = ConfChange.newBuilder().setType(type).setNodeId(node).build();
        return Entry.newBuilder().setIndex(index).setTerm(term).setType(EntryType.EntryConfChange)
                .setData(cc.toByteString()).build();
    }

    private static Entry normal(long index, long term) {
        return Entry.newBuilder().setIndex(index).setTerm(term).build();
    }

    /** The log of a 3-member cluster bootstrapped at term 1 and led by node 2 in term 2. */
    private static List<Entry> bootstrapLog() {
        List<Entry> log = new ArrayList<>();
        log.add(confEntry(1, 1, ConfChangeType.ConfChangeAddNode, 1));
        log.add(confEntry(2, 1, ConfChangeType.ConfChangeAddNode, 2));
        log.add(confEntry(3, 1, ConfChangeType.ConfChangeAddNode, 3));
        log.add(normal(4, 2));
        log.add(normal(5, 2));
        return log;
    }

    @Test
    void aNodeWithUnappliedConfChangesNeverCampaignsEvenWhenItLooksLikeTheOnlyVoter() {
        MemoryRaftStorage storage = new MemoryRaftStorage();
        storage.append(bootstrapLog());
        storage.setHardState(HardState.newBuilder().setTerm(2).setVote(2).setCommit(5).build());
        // Restarting the old way: membership from the (absent) snapshot, nothing applied.
        RawNode node = RawNode.create(RaftConfig.builder().id(1).asyncApply(true).build(), storage);
        Ready rd = node.ready();
        assertEquals(5, rd.committedEntries().size(), "the committed log is handed out for replay");
        node.advance(rd);
        // The apply thread has applied only the first conf change: node 1 alone in the configuration.
        node.applyConfChange(ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(1).build());
        for (int i = 0; i < 5 * RaftConfig.DEFAULT_ELECTION_TICK; i++) {
            node.tick();
        }
        assertEquals(RaftRole.FOLLOWER, node.status().role(), "must not campaign on a partial membership");
        assertEquals(2, node.status().term(), "and must not raise its term either");

        node.applyConfChange(ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(2).build());
        node.applyConfChange(ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(3).build());
        node.appliedTo(5);
        for (int i = 0; i < 3 * RaftConfig.DEFAULT_ELECTION_TICK; i++) {
            node.tick();
        }
        assertFalse(node.status().role() == RaftRole.LEADER, "with three voters it needs votes it has not had");
        assertTrue(node.status().role() == RaftRole.PRE_CANDIDATE || node.status().role() == RaftRole.FOLLOWER);
    }

    @Test
    void restartPointRebuildsTheMembershipTheApplicationReached() {
        HardState hs = HardState.newBuilder().setTerm(2).setVote(2).setCommit(5).build();
        RestartPoint at = RestartPoint.of(null, hs, bootstrapLog(), 4);
        assertEquals(4, at.applied());
        assertEquals(List.of(1L, 2L, 3L), at.confState().getVotersList());

        MemoryRaftStorage storage = new MemoryRaftStorage();
        storage.append(bootstrapLog());
        storage.setHardState(hs);
        storage.setConfState(at.confState());
        RawNode node = RawNode.create(RaftConfig.builder().id(1).asyncApply(true).applied(at.applied()).build(), storage);
        assertEquals(List.of(1L, 2L, 3L), node.status().confState().getVotersList(), "membership in force from the start");
        Ready rd = node.ready();
        assertEquals(List.of(5L), rd.committedEntries().stream().map(Entry::getIndex).toList(),
                "only what the application lacks is handed out again");
    }

    @Test
    void restartPointNeverStartsPastTheDurableCommitIndex() {
        // The backend applied index 5, but the hard state that committed it was not synced.
        HardState hs = HardState.newBuilder().setTerm(2).setVote(2).setCommit(3).build();
        RestartPoint at = RestartPoint.of(null, hs, bootstrapLog(), 5);
        assertEquals(3, at.applied());
        assertEquals(List.of(1L, 2L, 3L), at.confState().getVotersList());
    }

    @Test
    void restartPointStartsFromTheSnapshotMembershipAndReplaysLaterChanges() {
        ConfState cs = ConfState.newBuilder().addVoters(1).addVoters(2).addVoters(3).build();
        Snapshot snap = Snapshot.newBuilder().setMetadata(SnapshotMetadata.newBuilder().setIndex(5).setTerm(2)
                .setConfState(cs)).build();
        List<Entry> after = List.of(
                confEntry(6, 2, ConfChangeType.ConfChangeAddLearnerNode, 4),
                confEntry(7, 2, ConfChangeType.ConfChangeRemoveNode, 3),
                confEntry(8, 2, ConfChangeType.ConfChangeAddNode, 4));
        HardState hs = HardState.newBuilder().setTerm(2).setCommit(8).build();
        RestartPoint at = RestartPoint.of(snap, hs, after, 7);
        assertEquals(7, at.applied());
        assertEquals(List.of(1L, 2L), at.confState().getVotersList());
        assertEquals(List.of(4L), at.confState().getLearnersList(), "the promotion at 8 is not applied yet");

        RestartPoint behind = RestartPoint.of(snap, hs, after, 2);
        assertEquals(5, behind.applied(), "never below the snapshot");
        assertEquals(cs, behind.confState());
    }
}
