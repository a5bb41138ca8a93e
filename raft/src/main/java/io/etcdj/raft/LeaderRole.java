package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raft.quorum.VoteResult;
import io.etcdj.raft.tracker.Progress;
import io.etcdj.raft.tracker.ProgressState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Leader behaviour: accept proposals, track follower progress, commit, answer reads, hand over leadership. */
final class LeaderRole implements RoleBehavior {
    /** Forwarded conf changes held back at once; beyond that they become no-op entries, as in etcd's raft. */
    private static final int MAX_DEFERRED_CONF_CHANGES = 64;
    private final Raft r;

    LeaderRole(Raft r) {
        this.r = r;
    }

    @Override
    public void step(Message m) {
        switch (m.getType()) {
            case MsgBeat -> r.replication.bcastHeartbeat();
            case MsgCheckQuorum -> checkQuorum();
            case MsgProp -> propose(m);
            case MsgReadIndex -> readIndex(m);
            default -> stepFromPeer(m);
        }
    }

    void checkQuorum() {
        if (!r.tracker.quorumActive(r.id)) {
            // Without contact from a quorum for an election timeout we may be partitioned away;
            // a new leader may already exist, so stop serving.
            r.becomeFollower(r.term, Raft.NONE);
        }
    }

    private void stepFromPeer(Message m) {
        Progress pr = r.tracker.progress(m.getFrom());
        if (pr == null) {
            return;
        }
        switch (m.getType()) {
            case MsgAppResp -> appendResponse(m, pr);
            case MsgHeartbeatResp -> heartbeatResponse(m, pr);
            case MsgSnapStatus -> {
                if (pr.state() != ProgressState.SNAPSHOT) {
                    return;
                }
                if (m.getReject()) {
                    pr.abortSnapshot();
                }
                pr.becomeProbe();
                // Wait for a heartbeat answer before probing again, so a failed send is not retried in a tight loop.
                pr.setProbeSent(true);
            }
            case MsgUnreachable -> {
                if (pr.state() == ProgressState.REPLICATE) {
                    pr.becomeProbe();
                }
            }
            case MsgTransferLeader -> transferLeader(m.getFrom(), pr);
            default -> {
                // Stale vote answers and the like.
            }
        }
    }

    private void propose(Message m) {
        if (m.getEntriesCount() == 0) {
            throw new IllegalArgumentException("stepped empty MsgProp");
        }
        if (!r.tracker.isMember(r.id)) {
            throw new ProposalDroppedException("this node was removed from the configuration");
        }
        if (r.leadTransferee != Raft.NONE) {
            throw new ProposalDroppedException("leadership transfer to " + r.leadTransferee + " in progress");
        }
        boolean local = m.getFrom() == r.id || m.getFrom() == Raft.NONE;
        List<Entry.Builder> ents = new ArrayList<>(m.getEntriesCount());
        long confIndex = -1;
        for (int i = 0; i < m.getEntriesCount(); i++) {
            Entry e = m.getEntries(i);
            if (e.getType() == EntryType.EntryConfChange) {
                String refusal = confChangeRefusal(e, confIndex >= 0);
                if (refusal != null) {
                    if (local) {
                        throw new ProposalDroppedException(refusal);
                    }
                    if (onlyUntilApplied(e, confIndex >= 0) && r.deferredConfChanges.size() < MAX_DEFERRED_CONF_CHANGES) {
                        // only waiting for the pending one to be applied: proposed again then
                        r.deferredConfChanges.add(m.toBuilder().clearEntries().addEntries(e).build());
                        continue;
                    }
                    // A forwarded change cannot be refused to its sender: turn it into a no-op entry.
                    e = Entry.newBuilder().setType(EntryType.EntryNormal).build();
                } else {
                    confIndex = r.log.lastIndex() + ents.size() + 1;
                }
            }
            ents.add(e.toBuilder());
        }
        if (ents.isEmpty()) {
            return;
        }
        if (!r.appendEntries(ents)) {
            throw new ProposalDroppedException("too many uncommitted entries");
        }
        if (confIndex >= 0) {
            r.pendingConfIndex = confIndex;
        }
        // Not sent yet: proposals arriving before the next Ready travel together in one append.
        r.appendsPending = true;
    }

    /** Whether the change is refused only because another is not applied yet (it is valid by itself). */
    private boolean onlyUntilApplied(Entry e, boolean anotherInBatch) {
        return (anotherInBatch || r.pendingConfIndex > r.log.applied()) && ConfChanges.refusal(r, e) == null;
    }

    private String confChangeRefusal(Entry e, boolean anotherInBatch) {
        if (anotherInBatch || r.pendingConfIndex > r.log.applied()) {
            return "possible unapplied conf change at index " + r.pendingConfIndex + " (applied to " + r.log.applied() + ")";
        }
        return ConfChanges.refusal(r, e);
    }

    private void readIndex(Message m) {
        if (r.tracker.voters().size() == 1 && r.tracker.isVoter(r.id)) {
            // A single voter is the quorum: its commit index is safe to read at once.
            respondToRead(m, r.log.committed());
            return;
        }
        if (!r.committedEntryInCurrentTerm()) {
            // Our commit index may lag the previous leader's until our own entry commits.
            r.pendingReadIndexMessages.add(m);
            return;
        }
        confirmAndRespondLater(m);
    }

    private void confirmAndRespondLater(Message m) {
        ByteString ctx = ReadIndexQueue.contextOf(m);
        r.readIndexQueue.add(r.log.committed(), m);
        r.readIndexQueue.ack(r.id, ctx);
        r.replication.bcastHeartbeat(ctx);
    }

    void releasePendingReadIndexMessages() {
        if (r.pendingReadIndexMessages.isEmpty() || !r.committedEntryInCurrentTerm()) {
            return;
        }
        List<Message> waiting = new ArrayList<>(r.pendingReadIndexMessages);
        r.pendingReadIndexMessages.clear();
        for (Message m : waiting) {
            readIndex(m);
        }
    }

    private void respondToRead(Message req, long index) {
        if (req.getFrom() == Raft.NONE || req.getFrom() == r.id) {
            r.outbox.addReadState(index, ReadIndexQueue.contextOf(req));
        } else {
            r.send(Message.newBuilder().setType(MessageType.MsgReadIndexResp).setTo(req.getFrom())
                    .setIndex(index).addAllEntries(req.getEntriesList()));
        }
    }

    private void appendResponse(Message m, Progress pr) {
        pr.setRecentActive(true);
        if (m.getReject()) {
            long nextProbe = m.getRejectHint();
            if (m.getLogTerm() > 0) {
                nextProbe = r.log.findConflictByTerm(m.getRejectHint(), m.getLogTerm())[0];
            }
            if (pr.maybeDecrTo(m.getIndex(), nextProbe)) {
                if (pr.state() == ProgressState.REPLICATE) {
                    pr.becomeProbe();
                }
                r.replication.sendAppend(m.getFrom());
            }
            return;
        }
        boolean wasPaused = pr.isPaused();
        if (!pr.maybeUpdate(m.getIndex())) {
            return;
        }
        switch (pr.state()) {
            case PROBE -> pr.becomeReplicate();
            case SNAPSHOT -> {
                if (pr.match() + 1 >= r.log.firstIndex()) {
                    // Caught up through the snapshot: entries after it are available again.
                    pr.becomeProbe();
                    pr.becomeReplicate();
                }
            }
            case REPLICATE -> pr.inflights().freeLE(m.getIndex());
        }
        if (r.maybeCommit()) {
            r.replication.bcastAppend();
        } else if (wasPaused) {
            r.replication.sendAppend(m.getFrom());
        }
        // Fill the in-flight window with whatever is left.
        while (r.replication.maybeSendAppend(m.getFrom(), false)) {
            // keep sending
        }
        if (m.getFrom() == r.leadTransferee && pr.match() == r.log.lastIndex()) {
            r.replication.sendTimeoutNow(m.getFrom());
        }
    }

    private void heartbeatResponse(Message m, Progress pr) {
        pr.setRecentActive(true);
        pr.setProbeSent(false);
        if (pr.state() == ProgressState.REPLICATE && pr.inflights().full()) {
            pr.inflights().freeFirstOne();
        }
        if (pr.match() < r.log.lastIndex()) {
            r.replication.sendAppend(m.getFrom());
        }
        if (m.getContext().isEmpty()) {
            return;
        }
        Set<Long> acks = r.readIndexQueue.ack(m.getFrom(), m.getContext());
        if (acks == null) {
            return;
        }
        Map<Long, Boolean> granted = new HashMap<>();
        for (long id : acks) {
            granted.put(id, true);
        }
        if (r.tracker.voters().voteResult(granted) != VoteResult.WON) {
            return;
        }
        for (ReadIndexQueue.Pending p : r.readIndexQueue.advance(m.getContext())) {
            respondToRead(p.request(), p.index());
        }
    }

    private void transferLeader(long transferee, Progress pr) {
        if (pr.isLearner()) {
            return;
        }
        if (r.leadTransferee != Raft.NONE) {
            if (r.leadTransferee == transferee) {
                return;
            }
            r.leadTransferee = Raft.NONE;
        }
        if (transferee == r.id) {
            return;
        }
        // The transfer must finish within an election timeout (see tickHeartbeat).
        r.electionElapsed = 0;
        r.leadTransferee = transferee;
        if (pr.match() == r.log.lastIndex()) {
            r.replication.sendTimeoutNow(transferee);
        } else {
            r.replication.sendAppend(transferee);
        }
    }
}
