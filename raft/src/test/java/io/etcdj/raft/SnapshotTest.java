package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raft.tracker.ProgressState;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Snapshots: a follower that needs compacted entries is caught up with MsgSnap. */
class SnapshotTest {

    private static TestCluster compactedBehindLaggingFollower() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.isolate(3);
        for (int i = 0; i < 10; i++) {
            c.propose(1, "v" + i);
        }
        c.node(1).snapshotAndCompact(0);
        assertTrue(c.node(1).storage.firstIndex() > c.node(3).storage.lastIndex() + 1, "node 3 needs compacted entries");
        return c;
    }

    @Test
    void laggingFollowerReceivesASnapshot() {
        TestCluster c = compactedBehindLaggingFollower();
        List<Message> snaps = new ArrayList<>();
        c.heal();
        c.drop(m -> {
            if (m.getType() == MessageType.MsgSnap) {
                snaps.add(m);
            }
            return false;
        });
        c.tick(1, 1);
        assertEquals(1, snaps.size());
        TestNode follower = c.node(3);
        assertEquals(c.node(1).storage.snapshot().getMetadata().getIndex(), follower.storage.snapshot().getMetadata().getIndex());
        assertEquals(c.node(1).status().commit(), follower.status().commit());
        // Replication continues normally after the snapshot.
        c.propose(1, "after");
        assertEquals(List.of("after"), follower.appliedData());
        assertEquals(ProgressState.REPLICATE, c.node(1).status().progress().get(3L).state());
    }

    @Test
    void failedSnapshotIsRetriedAfterReportSnapshot() {
        TestCluster c = compactedBehindLaggingFollower();
        c.heal();
        c.dropType(MessageType.MsgSnap);
        c.tick(1, 1);
        assertEquals(ProgressState.SNAPSHOT, c.node(1).status().progress().get(3L).state());
        c.node(1).node.reportSnapshot(3, false);
        assertEquals(ProgressState.PROBE, c.node(1).status().progress().get(3L).state());
        c.heal();
        c.tick(2, 1);
        assertEquals(c.node(1).status().commit(), c.node(3).status().commit());
    }

    @Test
    void memberAddedAfterTheSnapshotCatchesUpThroughIt() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        for (int i = 0; i < 5; i++) {
            c.propose(1, "v" + i);
        }
        c.node(1).snapshotAndCompact(0);
        TestNode joiner = c.addEmptyNode(4, b -> b);
        c.node(1).node.proposeConfChange(ConfChange.newBuilder()
                .setType(ConfChangeType.ConfChangeAddLearnerNode).setNodeId(4).build());
        c.stabilize();
        c.tick(2, 1);
        assertTrue(joiner.storage.snapshot().getMetadata().getIndex() > 0, "caught up through a snapshot");
        assertTrue(joiner.status().learner(), "then applied its own addition from the log");
        c.propose(1, "after");
        assertEquals(List.of("after"), joiner.appliedData());
    }

    @Test
    void reportUnreachableTurnsReplicateIntoProbe() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        c.propose(1, "x");
        assertEquals(ProgressState.REPLICATE, c.node(1).status().progress().get(2L).state());
        c.node(1).node.reportUnreachable(2);
        assertEquals(ProgressState.PROBE, c.node(1).status().progress().get(2L).state());
    }

    @Test
    void restartFromASnapshotKeepsMembershipAndLog() {
        TestCluster c = TestCluster.of(3);
        c.campaign(1);
        for (int i = 0; i < 3; i++) {
            c.propose(1, "v" + i);
        }
        TestNode n = c.node(2);
        n.snapshotAndCompact(1);
        c.propose(1, "v3");
        c.propose(1, "v4");
        n.restart();
        c.stabilize();
        assertEquals(List.of(1L, 2L, 3L), n.status().confState().getVotersList());
        c.propose(1, "after-restart");
        assertEquals(List.of("v3", "v4", "after-restart"), n.appliedData(), "replays what follows the snapshot, then new entries");
    }
}
