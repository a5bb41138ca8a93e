package io.etcdj.raft;

import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;

/** Follower behaviour, plus the log-receiving handlers candidates reuse after stepping down. */
final class FollowerRole implements RoleBehavior {
    private final Raft r;

    FollowerRole(Raft r) {
        this.r = r;
    }

    @Override
    public void step(Message m) {
        switch (m.getType()) {
            case MsgProp -> {
                if (r.lead == Raft.NONE) {
                    throw new ProposalDroppedException("no leader at term " + r.term);
                }
                r.send(m.toBuilder().setTo(r.lead));
            }
            case MsgApp -> {
                heardFromLeader(m);
                handleAppend(m);
            }
            case MsgHeartbeat -> {
                heardFromLeader(m);
                handleHeartbeat(m);
            }
            case MsgSnap -> {
                heardFromLeader(m);
                handleSnapshot(m);
            }
            case MsgTransferLeader -> {
                if (r.lead != Raft.NONE) {
                    r.send(m.toBuilder().setTo(r.lead));
                }
            }
            case MsgTimeoutNow -> r.hup(Raft.CampaignType.TRANSFER);
            case MsgReadIndex -> {
                if (r.lead == Raft.NONE) {
                    throw new ProposalDroppedException("no leader at term " + r.term + "; dropping index reading msg");
                }
                r.send(m.toBuilder().setTo(r.lead));
            }
            case MsgReadIndexResp -> {
                if (m.getEntriesCount() == 1) {
                    r.outbox.addReadState(m.getIndex(), m.getEntries(0).getData());
                }
            }
            default -> {
                // Other messages (stale responses, etc.) mean nothing to a follower.
            }
        }
    }

    private void heardFromLeader(Message m) {
        r.electionElapsed = 0;
        r.lead = m.getFrom();
    }

    void handleAppend(Message m) {
        if (m.getIndex() < r.log.committed()) {
            // Already committed here: tell the leader how far we are.
            r.send(reply(m).setIndex(r.log.committed()));
            return;
        }
        long lastNew = r.log.maybeAppend(m.getIndex(), m.getLogTerm(), m.getCommit(), m.getEntriesList());
        if (lastNew >= 0) {
            r.send(reply(m).setIndex(lastNew));
            return;
        }
        // Mismatch at m.index: hint the leader at the last index that could match, so it can skip
        // whole terms of divergent entries.
        long[] hint = r.log.findConflictByTerm(Math.min(m.getIndex(), r.log.lastIndex()), m.getLogTerm());
        r.send(reply(m).setIndex(m.getIndex()).setReject(true).setRejectHint(hint[0]).setLogTerm(hint[1]));
    }

    void handleHeartbeat(Message m) {
        // The leader sends min(our match, its commit), so this never passes our log.
        r.log.commitTo(m.getCommit());
        r.send(Message.newBuilder().setType(MessageType.MsgHeartbeatResp).setTo(m.getFrom()).setContext(m.getContext()));
    }

    void handleSnapshot(Message m) {
        if (r.restore(m.getSnapshot())) {
            r.send(reply(m).setIndex(r.log.lastIndex()));
        } else {
            r.send(reply(m).setIndex(r.log.committed()));
        }
    }

    private static Message.Builder reply(Message m) {
        return Message.newBuilder().setType(MessageType.MsgAppResp).setTo(m.getFrom());
    }
}
