package io.etcdj.raft;

import io.etcdj.raft.quorum.VoteResult;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;

/** Starting elections (pre-vote, vote, transfer) and answering vote requests. */
final class Election {
    private final Raft r;

    Election(Raft r) {
        this.r = r;
    }

    /** Campaigns unless this node leads already, cannot vote, or has a committed conf change to apply first. */
    void hup(Raft.CampaignType type) {
        if (r.role == RaftRole.LEADER || !r.promotable() || hasUnappliedConfChanges()) {
            return;
        }
        campaign(type);
    }

    private boolean hasUnappliedConfChanges() {
        // Applied as the application reports it: a conf change handed out but not yet applied there
        // still counts, or a restarting node could campaign in a configuration it has not reached.
        // Below the first index the membership is the snapshot's, already in force.
        long from = Math.max(Math.max(r.log.applied(), r.confReflectedThrough), r.log.firstIndex() - 1) + 1;
        if (from > r.log.committed()) {
            return false;
        }
        try {
            for (Entry e : r.log.slice(from, r.log.committed() + 1, Long.MAX_VALUE)) {
                if (e.getType() == EntryType.EntryConfChange) {
                    return true;
                }
            }
        } catch (CompactedException e) {
            return false;
        }
        return false;
    }

    void campaign(Raft.CampaignType type) {
        if (!r.promotable()) {
            return;
        }
        MessageType voteType;
        long voteTerm;
        if (type == Raft.CampaignType.PRE_ELECTION) {
            r.becomePreCandidate();
            voteType = MessageType.MsgPreVote;
            // Pre-votes ask about the term we would use, without raising ours.
            voteTerm = r.term + 1;
        } else {
            r.becomeCandidate();
            voteType = MessageType.MsgVote;
            voteTerm = r.term;
        }
        if (r.poll(r.id, true) == VoteResult.WON) {
            // Single voter: no one else to ask.
            if (type == Raft.CampaignType.PRE_ELECTION) {
                campaign(Raft.CampaignType.ELECTION);
            } else {
                r.becomeLeader();
            }
            return;
        }
        for (long voter : r.tracker.voters().voters()) {
            if (voter == r.id) {
                continue;
            }
            Message.Builder m = Message.newBuilder().setType(voteType).setTo(voter).setTerm(voteTerm)
                    .setIndex(r.log.lastIndex()).setLogTerm(r.log.lastTerm());
            if (type == Raft.CampaignType.TRANSFER) {
                m.setContext(Raft.CAMPAIGN_TRANSFER);
            }
            r.send(m);
        }
    }

    void handleVoteRequest(Message m) {
        boolean preVote = m.getType() == MessageType.MsgPreVote;
        MessageType respType = preVote ? MessageType.MsgPreVoteResp : MessageType.MsgVoteResp;
        boolean canVote = r.vote == m.getFrom()
                || (r.vote == Raft.NONE && r.lead == Raft.NONE)
                || (preVote && m.getTerm() > r.term);
        if (canVote && r.log.isUpToDate(m.getIndex(), m.getLogTerm())) {
            // Answer with the request's term: a pre-vote grant must not look stale to the asker.
            r.send(Message.newBuilder().setType(respType).setTo(m.getFrom()).setTerm(m.getTerm()));
            if (!preVote) {
                r.electionElapsed = 0;
                r.vote = m.getFrom();
            }
        } else {
            r.send(Message.newBuilder().setType(respType).setTo(m.getFrom()).setTerm(r.term).setReject(true));
        }
    }
}
