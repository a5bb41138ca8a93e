package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's first use case: one voter elects itself and commits with no network round. */
class SingleVoterTest {

    private static TestNode bootstrapped() {
        TestNode n = new TestNode(1, 1, b -> b);
        n.node.bootstrap(List.of(1L));
        n.processReady();
        return n;
    }

    @Test
    void campaignMakesTheOnlyVoterLeaderAtOnce() {
        TestNode n = bootstrapped();
        n.node.campaign();
        assertEquals(RaftRole.LEADER, n.status().role());
        assertEquals(2, n.status().term(), "pre-vote then vote: term 1 -> 2");
        List<Message> msgs = n.processReady();
        assertTrue(msgs.isEmpty(), "nobody to talk to");
        assertEquals(2, n.appliedIndex, "the new leader's empty entry commits alone");
    }

    @Test
    void electsItselfOnItsFirstTickWithoutWaitingForATimeout() {
        TestNode n = bootstrapped();
        n.node.tick();
        assertTrue(n.isLeader(), "a sole voter has nobody to wait for");
    }

    @Test
    void proposalIsPersistedAndCommittedInTheSameReady() {
        TestNode n = bootstrapped();
        n.node.campaign();
        n.processReady();
        n.node.propose("hello".getBytes(StandardCharsets.UTF_8));
        assertTrue(n.node.hasReady());
        Ready rd = n.node.ready();
        assertEquals(1, rd.entries().size());
        assertEquals(rd.entries(), rd.committedEntries(), "committed without any message exchange");
        assertTrue(rd.messages().isEmpty());
        assertTrue(rd.mustSync());
        assertNotNull(rd.hardState());
        assertEquals(rd.entries().get(0).getIndex(), rd.hardState().getCommit());
        assertFalse(n.node.hasReady(), "nothing new until advance");
        assertThrows(IllegalStateException.class, n.node::ready);
        n.storage.append(rd.entries());
        n.node.advance(rd);
        assertFalse(n.node.hasReady());
        assertEquals(3, n.status().applied());
    }

    @Test
    void manyProposalsAreCommittedTogether() {
        TestNode n = bootstrapped();
        n.node.campaign();
        n.processReady();
        for (int i = 0; i < 100; i++) {
            n.node.propose(("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        Ready rd = n.node.ready();
        assertEquals(100, rd.entries().size());
        assertEquals(100, rd.committedEntries().size());
        n.storage.append(rd.entries());
        n.node.advance(rd);
    }

    @Test
    void readIndexIsAnsweredWithoutAMessage() {
        TestNode n = bootstrapped();
        n.node.campaign();
        n.processReady();
        n.node.readIndex(new byte[] {42});
        Ready rd = n.node.ready();
        assertTrue(rd.messages().isEmpty());
        assertEquals(1, rd.readStates().size());
        assertEquals(2, rd.readStates().get(0).index());
        n.node.advance(rd);
    }

    @Test
    void restartKeepsTermAndLog() {
        TestNode n = bootstrapped();
        n.node.campaign();
        n.processReady();
        n.node.propose("x".getBytes(StandardCharsets.UTF_8));
        n.processReady();
        n.restart();
        n.processReady();
        assertEquals(2, n.status().term());
        assertEquals(3, n.status().commit());
        assertEquals(List.of("x"), n.appliedData(), "committed entries are replayed after restart");
        n.node.campaign();
        assertEquals(RaftRole.LEADER, n.status().role());
        assertEquals(3, n.status().term());
    }

    @Test
    void proposalWithoutLeaderIsDropped() {
        TestNode n = bootstrapped();
        assertThrows(ProposalDroppedException.class, () -> n.node.propose(new byte[] {1}));
        assertThrows(ProposalDroppedException.class, () -> n.node.readIndex(new byte[] {1}));
    }

    @Test
    void localMessageTypesAreRejectedFromTheNetwork() {
        TestNode n = bootstrapped();
        for (MessageType t : List.of(MessageType.MsgHup, MessageType.MsgBeat, MessageType.MsgCheckQuorum,
                MessageType.MsgUnreachable, MessageType.MsgSnapStatus)) {
            Message m = Message.newBuilder().setType(t).setFrom(2).setTo(1).build();
            assertThrows(IllegalArgumentException.class, () -> n.node.step(m));
        }
    }

    @Test
    void bootstrapEntriesAreDeliveredForApplying() {
        TestNode n = new TestNode(1, 1, b -> b);
        n.node.bootstrap(List.of(1L, 2L, 3L));
        Ready rd = n.node.ready();
        assertEquals(3, rd.entries().size());
        assertEquals(3, rd.committedEntries().size());
        for (Entry e : rd.committedEntries()) {
            assertEquals(EntryType.EntryConfChange, e.getType());
        }
        assertEquals(List.of(1L, 2L, 3L), n.status().confState().getVotersList());
    }
}
