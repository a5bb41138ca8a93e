package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raft.tracker.Progress;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.raftpb.Snapshot;
import java.util.List;

/**
 * The leader's outbound log traffic: appends (batched up to the size limit, pipelined within the
 * in-flight window in REPLICATE, one at a time in PROBE), snapshots and heartbeats.
 */
final class Replication {
    private final Raft r;

    Replication(Raft r) {
        this.r = r;
    }

    void sendAppend(long to) {
        maybeSendAppend(to, true);
    }

    /**
     * Sends the next batch of entries to {@code to} if its progress allows. With
     * {@code sendIfEmpty} false nothing is sent when there are no new entries. Returns whether a
     * message was sent.
     */
    boolean maybeSendAppend(long to, boolean sendIfEmpty) {
        Progress pr = r.tracker.progress(to);
        if (pr == null || pr.isPaused()) {
            return false;
        }
        long prevIndex = pr.next() - 1;
        long prevTerm;
        List<Entry> ents;
        try {
            prevTerm = r.log.term(prevIndex);
            ents = r.log.entriesFrom(pr.next(), r.config.maxSizePerMsg());
        } catch (CompactedException | UnavailableException e) {
            return sendSnapshot(to, pr);
        }
        if (ents.isEmpty() && !sendIfEmpty) {
            return false;
        }
        r.send(Message.newBuilder().setType(MessageType.MsgApp).setTo(to).setIndex(prevIndex).setLogTerm(prevTerm)
                .addAllEntries(ents).setCommit(r.log.committed()));
        if (!ents.isEmpty()) {
            switch (pr.state()) {
                case REPLICATE -> {
                    long last = ents.get(ents.size() - 1).getIndex();
                    pr.optimisticUpdate(last);
                    pr.inflights().add(last);
                }
                case PROBE -> pr.setProbeSent(true);
                case SNAPSHOT -> throw new IllegalStateException("sending append to " + to + " in snapshot state");
            }
        }
        return true;
    }

    private boolean sendSnapshot(long to, Progress pr) {
        if (!pr.recentActive()) {
            // Do not ship a whole snapshot to a peer that may be down; wait until it answers.
            return false;
        }
        Snapshot snap = r.log.snapshot();
        if (snap.getMetadata().getIndex() == 0) {
            throw new IllegalStateException("need a non-empty snapshot to catch up " + to);
        }
        pr.becomeSnapshot(snap.getMetadata().getIndex());
        r.send(Message.newBuilder().setType(MessageType.MsgSnap).setTo(to).setSnapshot(snap));
        return true;
    }

    /** Broadcasts proposals accepted since the last Ready, filling each follower's window. */
    void flushPendingAppends() {
        if (!r.appendsPending) {
            return;
        }
        r.appendsPending = false;
        if (r.role != RaftRole.LEADER) {
            return;
        }
        for (long peer : r.tracker.allProgress().keySet()) {
            if (peer != r.id) {
                while (maybeSendAppend(peer, false)) {
                    // keep filling the in-flight window
                }
            }
        }
    }

    void bcastAppend() {
        for (long peer : r.tracker.allProgress().keySet()) {
            if (peer != r.id) {
                sendAppend(peer);
            }
        }
    }

    void bcastHeartbeat() {
        bcastHeartbeat(r.readIndexQueue.lastPendingContext());
    }

    void bcastHeartbeat(ByteString ctx) {
        for (long peer : r.tracker.allProgress().keySet()) {
            if (peer != r.id) {
                sendHeartbeat(peer, ctx);
            }
        }
    }

    private void sendHeartbeat(long to, ByteString ctx) {
        // Never tell a follower to commit past what it is known to hold.
        long commit = Math.min(r.tracker.progress(to).match(), r.log.committed());
        Message.Builder m = Message.newBuilder().setType(MessageType.MsgHeartbeat).setTo(to).setCommit(commit);
        if (ctx != null) {
            m.setContext(ctx);
        }
        r.send(m);
    }

    void sendTimeoutNow(long to) {
        r.send(Message.newBuilder().setType(MessageType.MsgTimeoutNow).setTo(to));
    }
}
