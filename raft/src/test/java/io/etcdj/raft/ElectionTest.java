package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Elections, pre-vote and check-quorum, each as a classic scenario. */
class ElectionTest {

    @Test
    void threeVotersElectOneLeaderAfterTimeout() {
        TestCluster c = TestCluster.of(3);
        c.tick(2 * RaftConfig.DEFAULT_ELECTION_TICK);
        TestNode leader = c.leader();
        assertNotNull(leader);
        for (TestNode n : c.nodes.values()) {
            assertEquals(leader.id, n.status().lead());
            assertEquals(leader.status().term(), n.status().term());
        }
    }

    /**
     * Advancing ticks (the server's initial election tick advance, on by default in etcd) runs the
     * election clock forward at once: advanced past the longest randomized timeout (just under two
     * election timeouts) a follower campaigns without another tick; without it, a follower cannot
     * campaign before a whole election timeout has passed.
     */
    @Test
    void advancedTicksCampaignAtOnceWithoutAdvanceNotBeforeATimeout() {
        int election = RaftConfig.DEFAULT_ELECTION_TICK;
        TestCluster advanced = TestCluster.of(3);
        advanced.node(1).node.advanceTicks(2 * election - 1);
        advanced.stabilize();
        assertEquals(RaftRole.LEADER, advanced.node(1).status().role(), "advanced: campaigned and won");

        TestCluster plain = TestCluster.of(3);
        long term = plain.node(1).status().term();
        plain.tick(election - 1, 1);
        assertEquals(RaftRole.FOLLOWER, plain.node(1).status().role(), "no advance: no campaign before the timeout");
        assertEquals(term, plain.node(1).status().term());
    }

    @Test
    void leaderWithStaleLogLosesTheElection() {
        for (boolean preVote : new boolean[] {true, false}) {
            TestCluster c = TestCluster.of(3, b -> b.preVote(preVote));
            c.campaign(1);
            c.isolate(3);
            c.propose(1, "a");
            c.propose(1, "b");
            c.heal();
            // Node 3 missed both entries: 1 and 2 must refuse it.
            long termBefore = c.node(1).status().term();
            c.node(1).node.tick(); // keep the cluster quiet apart from node 3's campaign
            c.node(3).node.campaign();
            c.stabilize();
            assertNotEquals(RaftRole.LEADER, c.node(3).status().role(), "preVote=" + preVote);
            if (!preVote) {
                // A real election raised terms and deposed 1, but 3 could not win it.
                assertTrue(c.node(1).status().term() > termBefore);
            }
            c.tick(3 * RaftConfig.DEFAULT_ELECTION_TICK);
            TestNode leader = c.leader();
            assertNotNull(leader);
            assertNotEquals(3, leader.id, "the eventual leader holds the committed entries");
            assertEquals(List.of("a", "b"), c.node(3).appliedData());
        }
    }

    @Test
    void preVotePreventsTermInflationByAPartitionedNode() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        long term = c.node(1).status().term();
        c.isolate(3);
        c.tick(10 * RaftConfig.DEFAULT_ELECTION_TICK, 3);
        assertEquals(term, c.node(3).status().term(), "pre-votes fail, so the term stays");
        assertEquals(RaftRole.PRE_CANDIDATE, c.node(3).status().role());
        c.heal();
        c.tick(2 * RaftConfig.DEFAULT_ELECTION_TICK);
        assertEquals(1, c.leader().id, "rejoining does not disturb the leader");
        assertEquals(term, c.node(1).status().term());
    }

    @Test
    void withoutPreVoteAPartitionedNodeInflatesItsTerm() {
        TestCluster c = TestCluster.of(3, b -> b.preVote(false));
        c.campaign(1);
        long term = c.node(1).status().term();
        c.isolate(3);
        c.tick(10 * RaftConfig.DEFAULT_ELECTION_TICK, 3);
        assertTrue(c.node(3).status().term() > term + 3);
    }

    @Test
    void checkQuorumMakesAnIsolatedLeaderStepDown() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.isolate(1);
        // The first check still sees the activity from the election; the second finds none.
        c.tick(2 * RaftConfig.DEFAULT_ELECTION_TICK, 1);
        assertEquals(RaftRole.FOLLOWER, c.node(1).status().role());
        assertEquals(0, c.node(1).status().lead());
    }

    @Test
    void followersWithALiveLeaderIgnoreVoteRequests() {
        TestCluster c = TestCluster.of(3, b -> b.preVote(false));
        c.campaign(1);
        long term = c.node(1).status().term();
        // Node 3 campaigns at once (e.g. it just restarted with a short timer) while 1 is healthy.
        c.node(3).node.campaign();
        c.stabilize();
        assertEquals(RaftRole.LEADER, c.node(1).status().role(), "leader lease: vote ignored");
        assertEquals(term, c.node(2).status().term());
    }

    @Test
    void candidateBehindInTermLearnsTheTermFromTheRefusal() {
        TestCluster c = TestCluster.of(3, b -> b.preVote(false).checkQuorum(false));
        c.isolate(1);
        for (int i = 0; i < 4; i++) {
            c.campaign(1);
        }
        long high = c.node(1).status().term();
        c.heal();
        c.isolate(3);
        c.campaign(2);
        assertEquals(high, c.node(2).status().term(), "the refusal carries the voter's term");
        assertEquals(RaftRole.FOLLOWER, c.node(2).status().role());
    }

    @Test
    void learnerNeverVotesOrCampaigns() {
        TestCluster c = TestCluster.of(2);
        c.campaign(1);
        TestNode learner = c.addEmptyNode(3, b -> b);
        c.node(1).node.proposeConfChange(ConfChange.newBuilder()
                .setType(ConfChangeType.ConfChangeAddLearnerNode).setNodeId(3).build());
        c.stabilize();
        assertTrue(learner.status().learner());
        assertEquals(List.of(1L, 2L), learner.status().confState().getVotersList());
        // A learner never starts an election, however long it hears nothing.
        c.isolate(1);
        c.isolate(2);
        long term = learner.status().term();
        c.tick(10 * RaftConfig.DEFAULT_ELECTION_TICK, 3);
        assertEquals(RaftRole.FOLLOWER, learner.status().role());
        assertEquals(term, learner.status().term());
        // Its vote does not count: 1 cannot win with itself and the learner while 2 is away.
        c.heal();
        c.isolate(2);
        c.tick(3 * RaftConfig.DEFAULT_ELECTION_TICK, 1, 3);
        assertNotEquals(RaftRole.LEADER, c.node(1).status().role());
        assertEquals(RaftRole.FOLLOWER, learner.status().role());
    }
}
