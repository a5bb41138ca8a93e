package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Leader transfer: MsgTransferLeader, catch-up, MsgTimeoutNow, and abort after an election timeout. */
class LeaderTransferTest {

    @Test
    void leadershipMovesToAnUpToDateFollower() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        long term = c.node(1).status().term();
        c.node(1).node.transferLeader(2);
        c.stabilize();
        assertEquals(RaftRole.LEADER, c.node(2).status().role());
        assertEquals(term + 1, c.node(2).status().term(), "the transfer skips pre-vote and wins at once");
        assertEquals(2, c.node(1).status().lead());
    }

    @Test
    void transferRequestedOnAFollowerIsForwarded() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.node(3).node.transferLeader(3);
        c.stabilize();
        assertEquals(RaftRole.LEADER, c.node(3).status().role());
    }

    @Test
    void laggingTransfereeCatchesUpFirst() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.isolate(3);
        c.propose(1, "a");
        c.heal();
        c.node(1).node.transferLeader(3);
        c.stabilize();
        assertEquals(RaftRole.LEADER, c.node(3).status().role());
        assertEquals(List.of("a"), c.node(3).appliedData());
    }

    @Test
    void proposalsAreDroppedDuringTransferAndTransferIsAbortedAfterElectionTimeout() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.isolate(3);
        c.node(1).node.transferLeader(3);
        c.stabilize();
        assertEquals(3, c.node(1).status().leadTransferee());
        assertThrows(ProposalDroppedException.class, () -> c.node(1).node.propose(new byte[] {1}));
        c.tick(RaftConfig.DEFAULT_ELECTION_TICK, 1, 2);
        assertEquals(0, c.node(1).status().leadTransferee());
        assertEquals(RaftRole.LEADER, c.node(1).status().role());
        c.propose(1, "accepted-again");
        assertEquals(List.of("accepted-again"), c.node(2).appliedData());
    }

    @Test
    void transferToALearnerIsIgnored() {
        TestCluster c = TestCluster.of(2);
        c.campaign(1);
        c.addEmptyNode(3, b -> b);
        c.node(1).node.proposeConfChange(ConfChange.newBuilder()
                .setType(ConfChangeType.ConfChangeAddLearnerNode).setNodeId(3).build());
        c.stabilize();
        c.node(1).node.transferLeader(3);
        c.stabilize();
        assertEquals(0, c.node(1).status().leadTransferee());
        assertEquals(RaftRole.LEADER, c.node(1).status().role());
    }
}
