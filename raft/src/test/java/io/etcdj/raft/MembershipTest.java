package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Single-step membership changes: add, learners and promotion, removal, one change at a time. */
class MembershipTest {

    private static ConfChange change(ConfChangeType type, long node) {
        return ConfChange.newBuilder().setType(type).setNodeId(node).build();
    }

    @Test
    void confChangesAreAcceptedOneAtATime() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        TestNode leader = c.node(1);
        c.isolate(2);
        c.isolate(3);
        leader.node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 4));
        ProposalDroppedException e = assertThrows(ProposalDroppedException.class,
                () -> leader.node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 5)));
        assertTrue(e.getMessage().contains("unapplied conf change"), e.getMessage());
        c.heal();
        c.tick(1, 1);
        assertEquals(List.of(4L), leader.status().confState().getLearnersList(), "first change applied");
        leader.node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 5));
        c.stabilize();
        assertEquals(List.of(4L, 5L), leader.status().confState().getLearnersList());
    }

    /**
     * A follower's conf change reaching the leader while the leader has not applied the previous
     * one waits and is proposed once it has, instead of becoming a no-op entry: its proposer
     * (the member a client asked) would otherwise wait until its request timed out. With the
     * server's asynchronous apply the leader's applied index may well lag its followers'.
     */
    @Test
    void aForwardedConfChangeWaitsForThePendingOneToBeApplied() {
        TestCluster c = TestCluster.of(3, b -> b.asyncApply(true));
        c.campaign(1);
        c.nodes.values().forEach(n -> n.applyPending(Integer.MAX_VALUE));
        c.stabilize();
        TestNode leader = c.node(1);
        leader.node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 4));
        c.stabilize();
        c.node(2).applyPending(Integer.MAX_VALUE);
        c.node(2).node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 5));
        c.stabilize();
        assertEquals(List.of(), leader.status().confState().getLearnersList(), "nothing applied on the leader yet");
        c.nodes.values().forEach(n -> n.applyPending(Integer.MAX_VALUE));
        c.stabilize();
        c.nodes.values().forEach(n -> n.applyPending(Integer.MAX_VALUE));
        c.stabilize();
        assertEquals(List.of(4L, 5L), leader.status().confState().getLearnersList(), "the forwarded change was applied too");
        assertEquals(List.of(4L, 5L), c.node(2).status().confState().getLearnersList());
    }

    @Test
    void newVoterCatchesUpAndCountsForQuorum() {
        TestCluster c = TestCluster.of(1);
        c.campaign(1);
        c.propose(1, "before");
        TestNode joiner = c.addEmptyNode(2, b -> b);
        c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeAddNode, 2));
        c.stabilize();
        assertEquals(List.of(1L, 2L), c.node(1).status().confState().getVotersList());
        assertEquals(List.of("before"), joiner.appliedData());
        // With two voters, node 1 alone can no longer commit.
        c.isolate(2);
        c.node(1).node.propose("needs-2".getBytes(StandardCharsets.UTF_8));
        c.stabilize();
        assertEquals(List.of("before"), c.node(1).appliedData());
        c.heal();
        c.tick(1, 1);
        assertEquals(List.of("before", "needs-2"), c.node(1).appliedData());
    }

    @Test
    void learnerIsPromotedByAddNode() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        TestNode learner = c.addEmptyNode(4, b -> b);
        c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 4));
        c.stabilize();
        c.propose(1, "x");
        assertEquals(List.of("x"), learner.appliedData(), "learners receive the log");
        assertTrue(learner.status().learner());
        c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeAddNode, 4));
        c.stabilize();
        assertFalse(learner.status().learner());
        assertEquals(List.of(1L, 2L, 3L, 4L), learner.status().confState().getVotersList());
        assertTrue(learner.status().confState().getLearnersList().isEmpty());
    }

    @Test
    void demotingAVoterIsRefused() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        assertThrows(ProposalDroppedException.class,
                () -> c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeAddLearnerNode, 2)));
    }

    @Test
    void removingTheLastVoterIsRefused() {
        TestCluster c = TestCluster.of(1);
        c.campaign(1);
        assertThrows(ProposalDroppedException.class,
                () -> c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeRemoveNode, 1)));
    }

    @Test
    void removedMemberCannotDisrupt() {
        TestCluster c = TestCluster.of(3, b -> b.preVote(false).checkQuorum(false));
        c.campaign(1);
        // Node 3 misses its own removal, so it still believes it is a voter.
        c.isolate(3);
        c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeRemoveNode, 3));
        c.stabilize();
        assertEquals(List.of(1L, 2L), c.node(1).status().confState().getVotersList());
        long term = c.node(1).status().term();
        c.heal();
        // Even without pre-vote and leases, its higher-term campaigns are ignored.
        c.tick(5 * RaftConfig.DEFAULT_ELECTION_TICK, 3);
        assertTrue(c.node(3).status().term() > term, "node 3 did campaign");
        c.tick(2 * RaftConfig.DEFAULT_ELECTION_TICK);
        assertEquals(RaftRole.LEADER, c.node(1).status().role());
        assertEquals(term, c.node(1).status().term());
        assertEquals(term, c.node(2).status().term());
        c.propose(1, "still-works");
        assertEquals(List.of("still-works"), c.node(2).appliedData());
    }

    @Test
    void removedLeaderStepsDownAndTheRestElectANewOne() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.node(1).node.proposeConfChange(change(ConfChangeType.ConfChangeRemoveNode, 1));
        c.stabilize();
        assertEquals(RaftRole.FOLLOWER, c.node(1).status().role());
        c.tick(3 * RaftConfig.DEFAULT_ELECTION_TICK, 2, 3);
        TestNode leader = c.leader();
        assertTrue(leader != null && leader.id != 1);
        c.propose(leader.id, "after");
        assertEquals(List.of("after"), c.node(2).appliedData());
        assertEquals(List.of("after"), c.node(3).appliedData());
    }
}
