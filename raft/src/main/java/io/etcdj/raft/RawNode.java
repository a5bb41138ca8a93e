package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raft.tracker.Progress;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Raft node as a deterministic state machine. Not thread-safe: a single driver loop calls it.
 * Inputs are {@link #tick()}, {@link #step(Message)} and the propose/read/transfer calls; the
 * output is a {@link Ready} whose contract is documented there and in the package documentation.
 */
public final class RawNode {
    private final Raft raft;
    private SoftState prevSoftState;
    private HardState prevHardState;
    private Ready outstanding;

    private RawNode(Raft raft) {
        this.raft = raft;
        this.prevSoftState = raft.softState();
        this.prevHardState = raft.hardState();
    }

    /** Creates a node from its configuration and (possibly non-empty, on restart) storage. */
    public static RawNode create(RaftConfig config, RaftStorage storage) {
        return new RawNode(new Raft(config, storage));
    }

    /**
     * Starts a brand-new cluster: appends one committed AddNode entry per voter at term 1 and
     * applies them to the configuration. The entries come out in the next Ready both to persist
     * and to apply (re-applying them through {@link #applyConfChange} is harmless). Storage must be empty.
     */
    public void bootstrap(List<Long> voters) {
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("must provide at least one voter to bootstrap");
        }
        if (raft.log.lastIndex() != 0) {
            throw new IllegalStateException("can't bootstrap a nonempty storage");
        }
        raft.becomeFollower(1, Raft.NONE);
        List<Entry> ents = new ArrayList<>();
        for (int i = 0; i < voters.size(); i++) {
            ConfChange cc = ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(voters.get(i)).build();
            ents.add(Entry.newBuilder().setType(EntryType.EntryConfChange).setTerm(1).setIndex(i + 1L)
                    .setData(cc.toByteString()).build());
        }
        raft.log.append(ents);
        raft.log.commitTo(ents.size());
        for (Entry e : ents) {
            raft.applyConfChange(ConfChanges.decode(e));
        }
        raft.confReflectedThrough = ents.size();
    }

    /** Advances the logical clock by one tick (elections, heartbeats, check-quorum). */
    public void tick() {
        raft.tick();
    }

    /**
     * Ticks {@code ticks} times at once: the server's initial election tick advance moves a new
     * follower's election clock forward this way (etcd's advanceTicks), so the member campaigns
     * after the few ticks left instead of a whole election timeout when no leader speaks.
     */
    public void advanceTicks(int ticks) {
        for (int i = 0; i < ticks; i++) {
            raft.tick();
        }
    }

    /** Starts an election now (pre-vote first when enabled). A no-op for leaders, learners and non-members. */
    public void campaign() {
        raft.step(local(MessageType.MsgHup).build());
    }

    /**
     * Proposes data to be appended to the log. Followers forward it to the leader.
     *
     * @throws ProposalDroppedException when it cannot be accepted now (no leader, transfer in progress, ...)
     */
    public void propose(byte[] data) {
        propose(ByteString.copyFrom(data));
    }

    /** {@link #propose(byte[])} without copying: a ByteString cannot change. */
    public void propose(ByteString data) {
        raft.step(local(MessageType.MsgProp).addEntries(Entry.newBuilder().setData(data)).build());
    }

    /**
     * Proposes a membership change. Only one may be pending: a second one proposed at the leader
     * before the first is applied throws. At a follower the change is forwarded; if the leader
     * must refuse it, it is committed as an empty entry instead and never reaches
     * {@link #applyConfChange}, so the caller's wait should time out.
     *
     * @throws ProposalDroppedException as {@link #propose}, or if another conf change is pending
     */
    public void proposeConfChange(ConfChange cc) {
        raft.step(local(MessageType.MsgProp).addEntries(
                Entry.newBuilder().setType(EntryType.EntryConfChange).setData(cc.toByteString())).build());
    }

    /** Applies a committed conf change to the configuration; returns the new membership. */
    public ConfState applyConfChange(ConfChange cc) {
        return raft.applyConfChange(cc);
    }

    /**
     * Feeds a message received from a peer. Messages from removed members and responses from
     * unknown peers are ignored; a proposal forwarded by a follower that cannot be accepted is dropped.
     *
     * @throws IllegalArgumentException for message types that only the node itself may generate
     */
    public void step(Message m) {
        if (isLocalMessage(m.getType())) {
            throw new IllegalArgumentException("raft: cannot step raft local message " + m.getType());
        }
        if (raft.removed.contains(m.getFrom())) {
            return;
        }
        if (isResponse(m.getType()) && !raft.tracker.isMember(m.getFrom())) {
            return;
        }
        try {
            raft.step(m);
        } catch (ProposalDroppedException e) {
            // The forwarding member's own request times out and is retried there.
        }
    }

    /**
     * Requests a linearizable read point; the answer arrives as a {@link ReadState} carrying
     * {@code requestCtx}, which should be unique per request.
     *
     * @throws ProposalDroppedException when there is no leader to ask
     */
    public void readIndex(byte[] requestCtx) {
        raft.step(local(MessageType.MsgReadIndex).addEntries(Entry.newBuilder().setData(ByteString.copyFrom(requestCtx))).build());
    }

    /** Asks the leader to hand leadership to {@code transferee} (forwarded when called on a follower). */
    public void transferLeader(long transferee) {
        raft.step(Message.newBuilder().setType(MessageType.MsgTransferLeader).setFrom(transferee).setTo(raft.id).build());
    }

    /** The transport failed to reach {@code id}: the leader stops streaming to it and probes instead. */
    public void reportUnreachable(long id) {
        raft.step(Message.newBuilder().setType(MessageType.MsgUnreachable).setFrom(id).build());
    }

    /** Tells the leader whether the snapshot sent to {@code id} was delivered. */
    public void reportSnapshot(long id, boolean ok) {
        raft.step(Message.newBuilder().setType(MessageType.MsgSnapStatus).setFrom(id).setReject(!ok).build());
    }

    /** Whether {@link #ready()} has something to do; false while a Ready awaits {@link #advance}. */
    public boolean hasReady() {
        if (outstanding != null) {
            return false;
        }
        return !prevSoftState.same(raft.lead, raft.role)
                || raft.hardStateDiffers(prevHardState)
                || raft.log.hasPendingSnapshot()
                || raft.outbox.hasMessages()
                || raft.log.unstable().hasEntries()
                || raft.log.hasNextEntries()
                || raft.outbox.hasReadStates();
    }

    /** Collects the pending work. Call {@link #advance} with it before asking for the next one. */
    public Ready ready() {
        if (outstanding != null) {
            throw new IllegalStateException("the previous Ready was not advanced");
        }
        raft.replication.flushPendingAppends();
        SoftState soft = raft.softState();
        HardState hard = raft.hardState();
        List<Entry> entries = raft.log.unstableEntries();
        Snapshot snapshot = raft.log.unstable().snapshot();
        boolean hardChanged = !hard.equals(prevHardState);
        boolean mustSync = !entries.isEmpty() || snapshot != null
                || hard.getTerm() != prevHardState.getTerm() || hard.getVote() != prevHardState.getVote();
        Ready rd = new Ready(
                soft.equals(prevSoftState) ? null : soft,
                hardChanged ? hard : null,
                entries,
                snapshot,
                raft.log.nextEntries(),
                raft.outbox.takeMessages(),
                raft.outbox.takeReadStates(),
                mustSync);
        prevSoftState = soft;
        prevHardState = hard;
        outstanding = rd;
        return rd;
    }

    /**
     * Tells the node the Ready was persisted and sent, and its committed entries applied (or, with
     * {@link RaftConfig#asyncApply()}, handed to the application, which reports them with
     * {@link #appliedTo}).
     */
    public void advance(Ready rd) {
        if (rd != outstanding) {
            throw new IllegalArgumentException("advance must be called with the last Ready returned by ready()");
        }
        if (!rd.entries().isEmpty()) {
            Entry last = rd.entries().get(rd.entries().size() - 1);
            raft.log.stableTo(last.getIndex(), last.getTerm());
        }
        boolean async = raft.config.asyncApply();
        if (rd.snapshot() != null) {
            long index = rd.snapshot().getMetadata().getIndex();
            raft.log.stableSnapTo(index);
            if (async) {
                raft.log.applyingTo(index);
            } else {
                raft.log.appliedTo(index);
            }
        }
        if (!rd.committedEntries().isEmpty()) {
            long last = rd.committedEntries().get(rd.committedEntries().size() - 1).getIndex();
            if (async) {
                raft.log.applyingTo(last);
            } else {
                raft.log.appliedTo(last);
                raft.proposeDeferredConfChanges();
            }
            raft.reduceUncommittedSize(rd.committedEntries());
        }
        outstanding = null;
    }

    /**
     * With {@link RaftConfig#asyncApply()}: the application has applied every entry up to
     * {@code index} (including the conf changes among them, through {@link #applyConfChange}).
     * Indexes at or below the current applied index are ignored.
     */
    public void appliedTo(long index) {
        if (index <= raft.log.applied()) {
            return;
        }
        if (index > raft.log.applying()) {
            throw new IllegalArgumentException("applied index " + index + " was never handed out (applying "
                    + raft.log.applying() + ")");
        }
        raft.log.appliedTo(index);
        raft.proposeDeferredConfChanges();
    }

    public Status status() {
        Map<Long, Status.PeerProgress> progress = new TreeMap<>();
        if (raft.role == RaftRole.LEADER) {
            for (Map.Entry<Long, Progress> e : raft.tracker.allProgress().entrySet()) {
                Progress p = e.getValue();
                progress.put(e.getKey(), new Status.PeerProgress(p.match(), p.next(), p.state(), p.isLearner(), p.recentActive()));
            }
        }
        return new Status(raft.id, raft.term, raft.vote, raft.log.committed(), raft.log.applied(), raft.lead, raft.role,
                raft.leadTransferee, raft.tracker.isLearner(raft.id), raft.tracker.confState(), progress);
    }

    private Message.Builder local(MessageType type) {
        return Message.newBuilder().setType(type).setFrom(raft.id);
    }

    /** Message types only the node itself generates; a peer sending one is misbehaving. */
    public static boolean isLocalMessage(MessageType t) {
        return t == MessageType.MsgHup || t == MessageType.MsgBeat || t == MessageType.MsgUnreachable
                || t == MessageType.MsgSnapStatus || t == MessageType.MsgCheckQuorum;
    }

    private static boolean isResponse(MessageType t) {
        return t == MessageType.MsgAppResp || t == MessageType.MsgVoteResp || t == MessageType.MsgHeartbeatResp
                || t == MessageType.MsgUnreachable || t == MessageType.MsgPreVoteResp;
    }
}
