package io.etcdj.raft;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raft.tracker.ProgressTracker;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;

/**
 * Single-step membership changes. A change takes effect when the application applies its
 * committed entry and calls {@link RawNode#applyConfChange}; every member applies the same changes
 * at the same log positions, so all agree on the configuration at every index.
 */
final class ConfChanges {
    private ConfChanges() {
    }

    static ConfChange decode(Entry e) {
        try {
            return ConfChange.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new IllegalArgumentException("malformed conf change entry at index " + e.getIndex(), ex);
        }
    }

    /** Why a proposed change must be refused, or null when it may be appended. */
    static String refusal(Raft r, Entry e) {
        ConfChange cc = decode(e);
        ProgressTracker t = r.tracker;
        return switch (cc.getType()) {
            case ConfChangeRemoveNode -> t.isVoter(cc.getNodeId()) && t.voters().size() == 1
                    ? "removing the last voter is not allowed" : null;
            case ConfChangeAddLearnerNode -> t.isVoter(cc.getNodeId())
                    ? "node " + Long.toHexString(cc.getNodeId()) + " is a voter; demotion is not supported" : null;
            default -> null;
        };
    }

    static void apply(Raft r, ConfChange cc) {
        // Start probing at the last entry so the new member gets an append right away.
        long next = Math.max(r.log.lastIndex(), 1);
        if (!applyTo(r.tracker, cc, next)) {
            return;
        }
        if (cc.getType() == ConfChangeType.ConfChangeRemoveNode) {
            r.removed.add(cc.getNodeId());
        }
        switchToNewConfig(r);
    }

    /**
     * The configuration rule itself, shared by a running node and by {@link RestartPoint}'s
     * replay: returns false when the change leaves the configuration as it was.
     */
    static boolean applyTo(ProgressTracker t, ConfChange cc, long next) {
        long node = cc.getNodeId();
        if (node == Raft.NONE) {
            // A refused change travels as a no-op.
            return false;
        }
        switch (cc.getType()) {
            // Adding an existing learner promotes it and keeps its progress.
            case ConfChangeAddNode -> t.addVoter(node, 0, next);
            case ConfChangeAddLearnerNode -> t.addLearner(node, 0, next);
            case ConfChangeRemoveNode -> {
                if (t.isVoter(node) && t.voters().size() == 1) {
                    // Never leave a configuration without voters; refused at proposal time too.
                    return false;
                }
                t.remove(node);
            }
            case ConfChangeUpdateNode, UNRECOGNIZED -> {
                // Only the application's view of the member (its URLs) changes.
                return false;
            }
        }
        return true;
    }

    private static void switchToNewConfig(Raft r) {
        ProgressTracker t = r.tracker;
        if (!t.isMember(r.id) && r.role == RaftRole.LEADER) {
            // Removed leader: stop leading; the remaining voters elect a new one.
            r.becomeFollower(r.term, Raft.NONE);
            return;
        }
        if (r.role != RaftRole.LEADER || t.voters().size() == 0) {
            return;
        }
        if (r.leadTransferee != Raft.NONE && !t.isVoter(r.leadTransferee)) {
            r.leadTransferee = Raft.NONE;
        }
        // The quorum changed: a smaller one may commit more; new members need their first append.
        if (r.maybeCommit()) {
            r.replication.bcastAppend();
        } else {
            for (long peer : t.allProgress().keySet()) {
                if (peer != r.id) {
                    r.replication.maybeSendAppend(peer, false);
                }
            }
        }
    }
}
