package io.etcdj.raft;

import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;

/** Candidate and pre-candidate behaviour: count votes, yield to a leader of the same term. */
final class CandidateRole implements RoleBehavior {
    private final Raft r;
    private final FollowerRole receiver;

    CandidateRole(Raft r) {
        this.r = r;
        this.receiver = new FollowerRole(r);
    }

    @Override
    public void step(Message m) {
        MessageType myVoteResp = r.role == RaftRole.PRE_CANDIDATE ? MessageType.MsgPreVoteResp : MessageType.MsgVoteResp;
        switch (m.getType()) {
            case MsgProp -> throw new ProposalDroppedException("no leader at term " + r.term);
            case MsgReadIndex -> throw new ProposalDroppedException("no leader at term " + r.term + "; dropping index reading msg");
            case MsgApp -> {
                r.becomeFollower(m.getTerm(), m.getFrom());
                receiver.handleAppend(m);
            }
            case MsgHeartbeat -> {
                r.becomeFollower(m.getTerm(), m.getFrom());
                receiver.handleHeartbeat(m);
            }
            case MsgSnap -> {
                r.becomeFollower(m.getTerm(), m.getFrom());
                receiver.handleSnapshot(m);
            }
            default -> {
                if (m.getType() == myVoteResp) {
                    countVote(m);
                }
                // Anything else (stale vote responses, TimeoutNow, transfers) is ignored.
            }
        }
    }

    private void countVote(Message m) {
        switch (r.poll(m.getFrom(), !m.getReject())) {
            case WON -> {
                if (r.role == RaftRole.PRE_CANDIDATE) {
                    r.campaign(Raft.CampaignType.ELECTION);
                } else {
                    r.becomeLeader();
                    r.replication.bcastAppend();
                }
            }
            case LOST -> r.becomeFollower(r.term, Raft.NONE);
            case PENDING -> {
                // Keep waiting; the election timeout retries if too few answer.
            }
        }
    }
}
