package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** Log replication: commitment rules, forwarding, batching, flow control, conflict repair. */
class ReplicationTest {

    private static Entry entry(long index, long term) {
        return Entry.newBuilder().setIndex(index).setTerm(term).build();
    }

    /**
     * Raft paper Figure 8: a leader must not count replicas of an entry from an earlier term to
     * commit it; it commits it only indirectly, by committing an entry of its own term after it.
     */
    @Test
    void previousTermEntryCommitsOnlyThroughACurrentTermEntry() {
        MemoryRaftStorage storage = new MemoryRaftStorage();
        storage.setConfState(ConfState.newBuilder().addVoters(1).addVoters(2).addVoters(3).build());
        storage.append(List.of(entry(1, 1), entry(2, 2)));
        storage.setHardState(HardState.newBuilder().setTerm(3).setCommit(1).build());
        RawNode n = RawNode.create(RaftConfig.builder().id(1).preVote(false).random(new Random(1)).build(), storage);

        n.campaign();
        n.step(Message.newBuilder().setType(MessageType.MsgVoteResp).setFrom(2).setTo(1).setTerm(4).build());
        assertEquals(RaftRole.LEADER, n.status().role());
        // The leader's log is now [1:t1, 2:t2, 3:t4]. Node 2 acknowledges up to index 2 only:
        // index 2 sits on a majority (1 and 2) but is from term 2, so it must not commit.
        n.step(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(2).setTo(1).setTerm(4).setIndex(2).build());
        assertEquals(1, n.status().commit(), "an old-term entry is never committed by counting replicas");
        // Once the term-4 entry is on a majority, it commits, and index 2 with it.
        n.step(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(2).setTo(1).setTerm(4).setIndex(3).build());
        assertEquals(3, n.status().commit());
    }

    /** Every MsgProp the network carries from now on, delivered as usual. */
    private static List<Message> recordProposals(TestCluster c) {
        List<Message> forwarded = new ArrayList<>();
        c.drop(m -> {
            if (m.getType() == MessageType.MsgProp) {
                forwarded.add(m);
            }
            return false;
        });
        return forwarded;
    }

    @Test
    void proposalOnAFollowerIsForwardedToTheLeader() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        List<Message> forwarded = recordProposals(c);
        c.propose(3, "from-follower");
        assertEquals(1, forwarded.size());
        assertEquals(1, forwarded.get(0).getTo());
        for (TestNode n : c.nodes.values()) {
            assertEquals(List.of("from-follower"), n.appliedData());
        }
    }

    @Test
    void proposalsMadeOnAFollowerInOneTurnReachTheLeaderAsOneMessage() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        List<Message> forwarded = recordProposals(c);
        TestNode follower = c.node(3);
        follower.node.propose("a".getBytes(StandardCharsets.UTF_8));
        follower.node.propose("b".getBytes(StandardCharsets.UTF_8));
        follower.node.propose("c".getBytes(StandardCharsets.UTF_8));
        c.stabilize();
        assertEquals(1, forwarded.size(), "one MsgProp for the turn's three proposals");
        assertEquals(3, forwarded.get(0).getEntriesCount());
        for (TestNode n : c.nodes.values()) {
            assertEquals(List.of("a", "b", "c"), n.appliedData(), "in the order they were proposed");
        }
    }

    @Test
    void aForwardedProposalKeepsItsPlaceAmongTheFollowersOtherMessages() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        TestNode follower = c.node(3);
        follower.node.propose("a".getBytes(StandardCharsets.UTF_8));
        // A heartbeat answered between two proposals: the first proposal leaves before the answer.
        follower.node.step(Message.newBuilder().setType(MessageType.MsgHeartbeat).setFrom(1).setTo(3)
                .setTerm(follower.status().term()).setCommit(follower.status().commit()).build());
        follower.node.propose("b".getBytes(StandardCharsets.UTF_8));
        List<MessageType> sent = follower.processReady().stream().map(Message::getType).toList();
        assertEquals(List.of(MessageType.MsgProp, MessageType.MsgHeartbeatResp, MessageType.MsgProp), sent);
    }

    @Test
    void manyProposalsTravelInOneAppend() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        List<Message> appends = new ArrayList<>();
        c.drop(m -> {
            if (m.getType() == MessageType.MsgApp && m.getTo() == 2) {
                appends.add(m);
            }
            return false;
        });
        // Hold replication back while proposals pile up at the leader.
        TestNode leader = c.node(1);
        for (int i = 0; i < 50; i++) {
            leader.node.propose(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        c.stabilize();
        assertEquals(50, c.node(2).appliedData().size());
        assertTrue(appends.stream().anyMatch(m -> m.getEntriesCount() == 50),
                "the 50 proposals are appended in one message");
    }

    @Test
    void appendsRespectTheSizeLimitAndInflightWindow() {
        TestCluster c = TestCluster.of(3, b -> b.maxSizePerMsg(20).maxInflightMsgs(2));
        c.campaign(1);
        c.isolate(2);
        for (int i = 0; i < 20; i++) {
            c.propose(1, "value-" + i);
        }
        c.heal();
        List<Message> appends = new ArrayList<>();
        c.drop(m -> {
            if (m.getType() == MessageType.MsgApp && m.getTo() == 2) {
                appends.add(m);
                return true; // never acknowledged: the window must stay bounded
            }
            return false;
        });
        c.tick(1, 1); // heartbeat -> answer -> append
        long withEntries = appends.stream().filter(m -> m.getEntriesCount() > 0).count();
        // The window holds 2 unacknowledged appends; the heartbeat answer may free one slot more.
        assertTrue(withEntries >= 1 && withEntries <= 3, "appends in flight: " + withEntries);
        for (Message m : appends) {
            assertTrue(m.getEntriesCount() <= 1, "20 bytes hold a single entry of this size");
        }
        Status.PeerProgress pr = c.node(1).status().progress().get(2L);
        assertTrue(pr.next() - pr.match() - 1 <= 3, "next runs ahead of match by the in-flight entries only: " + pr);
        c.heal();
        c.tick(3, 1);
        assertEquals(20, c.node(2).appliedData().size());
    }

    @Test
    void divergentFollowerLogIsRepaired() {
        TestCluster c = TestCluster.of(3, b -> b.preVote(false));
        c.campaign(1);
        c.propose(1, "committed");
        // Leader 1 appends entries that only it holds, then is cut off.
        c.isolate(1);
        for (int i = 0; i < 3; i++) {
            c.node(1).node.propose(("lost-" + i).getBytes(StandardCharsets.UTF_8));
        }
        c.stabilize();
        c.tick(3 * RaftConfig.DEFAULT_ELECTION_TICK, 2, 3);
        TestNode newLeader = c.leader();
        assertTrue(newLeader.id == 2 || newLeader.id == 3);
        c.propose(newLeader.id, "after");
        c.heal();
        c.tick(3);
        for (TestNode n : c.nodes.values()) {
            assertEquals(List.of("committed", "after"), n.appliedData(), "node " + n.id);
        }
    }

    @Test
    void uncommittedSizeLimitDropsProposals() {
        TestCluster c = TestCluster.of(3, b -> b.maxUncommittedEntriesSize(20));
        c.campaign(1);
        c.isolate(2);
        c.isolate(3);
        c.node(1).node.propose(new byte[15]);
        c.node(1).node.propose(new byte[5]);
        Assertions.assertThrows(ProposalDroppedException.class,
                () -> c.node(1).node.propose(new byte[1]));
    }
}
