package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.MessageType;
import org.junit.jupiter.api.Test;

/** ReadIndex: a read point is handed out only after leadership is confirmed by a quorum. */
class ReadIndexTest {

    @Test
    void leaderConfirmsWithAHeartbeatRoundThenAnswers() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.propose(1, "a");
        TestNode leader = c.node(1);
        leader.node.readIndex(new byte[] {1});
        c.stabilize();
        assertEquals(1, leader.readStates.size());
        assertEquals(leader.status().commit(), leader.readStates.get(0).index());
        assertArrayEquals(new byte[] {1}, leader.readStates.get(0).requestCtx());
    }

    @Test
    void followerForwardsToTheLeaderAndGetsTheAnswer() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.propose(1, "a");
        TestNode follower = c.node(3);
        follower.node.readIndex(new byte[] {7});
        c.stabilize();
        assertEquals(1, follower.readStates.size());
        assertEquals(c.node(1).status().commit(), follower.readStates.get(0).index());
    }

    @Test
    void leaderWithoutQuorumNeverAnswers() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.dropType(MessageType.MsgHeartbeatResp);
        c.node(1).node.readIndex(new byte[] {9});
        c.stabilize();
        c.tick(3, 1);
        assertTrue(c.node(1).readStates.isEmpty(), "no heartbeat answers, no read index");
        c.heal();
        c.tick(1, 1);
        assertEquals(1, c.node(1).readStates.size(), "the next confirmed heartbeat round answers it");
    }

    @Test
    void newLeaderDefersReadsUntilItsOwnEntryCommits() {
        TestCluster c = TestCluster.of(3);
        c.dropType(MessageType.MsgAppResp);
        c.campaign(1);
        TestNode leader = c.node(1);
        assertEquals(RaftRole.LEADER, leader.status().role());
        leader.node.readIndex(new byte[] {3});
        c.stabilize();
        assertTrue(leader.readStates.isEmpty(), "no entry of the new term committed yet");
        c.heal();
        c.tick(1, 1);
        assertEquals(1, leader.readStates.size());
        assertEquals(leader.status().commit(), leader.readStates.get(0).index());
    }
}
