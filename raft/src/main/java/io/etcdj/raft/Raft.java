package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raft.quorum.VoteResult;
import io.etcdj.raft.tracker.Progress;
import io.etcdj.raft.tracker.ProgressTracker;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.raftpb.Snapshot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one Raft node and the rules shared by every role: term bookkeeping, role changes,
 * ticking, voting and the message preamble. Role-specific handling lives in {@link FollowerRole},
 * {@link CandidateRole} and {@link LeaderRole}; sending the log lives in {@link Replication}, what the
 * node has to say until the next Ready in {@link Outbox}.
 */
final class Raft {
    static final long NONE = 0;
    /** Context of vote requests triggered by a leader transfer: they override the leader lease. */
    static final ByteString CAMPAIGN_TRANSFER = ByteString.copyFromUtf8("CampaignTransfer");

    enum CampaignType { PRE_ELECTION, ELECTION, TRANSFER }

    final long id;
    final RaftConfig config;
    final RaftLog log;
    final ProgressTracker tracker;
    final Replication replication;
    private final Election election;

    long term;
    long vote;
    long lead = NONE;
    RaftRole role = RaftRole.FOLLOWER;
    long leadTransferee = NONE;
    /** Index of the latest conf change proposed by this leader; another waits until it is applied. */
    long pendingConfIndex;
    /**
     * Conf changes forwarded by followers while another was still unapplied here: proposed again
     * (in arrival order) once that one is applied, instead of being dropped as no-op entries,
     * which left their proposers waiting until their request timed out. Leader only; cleared on
     * any role change (their proposers then time out, as with any proposal lost to an election).
     */
    final ArrayDeque<Message> deferredConfChanges = new ArrayDeque<>();
    /** Conf changes up to here are already reflected in the tracker (bootstrap applies them itself). */
    long confReflectedThrough;
    long uncommittedSize;
    /** New proposals are waiting to be broadcast (done once per Ready, which batches them). */
    boolean appendsPending;
    ReadIndexQueue readIndexQueue = new ReadIndexQueue();
    /** Read requests that arrived before this leader committed an entry of its own term. */
    final List<Message> pendingReadIndexMessages = new ArrayList<>();
    /** Nodes removed from the cluster; their messages are ignored so they cannot disrupt it. */
    final Set<Long> removed = new HashSet<>();

    int electionElapsed;
    int heartbeatElapsed;
    int randomizedElectionTimeout;

    /** Messages and read answers waiting for the next Ready. */
    final Outbox outbox;

    private RoleBehavior behavior;
    private final FollowerRole follower;
    private final CandidateRole candidate;
    private final LeaderRole leader;

    Raft(RaftConfig config, RaftStorage storage) {
        this.id = config.id();
        this.config = config;
        this.outbox = new Outbox(id);
        this.log = new RaftLog(storage, config.maxSizePerMsg());
        this.tracker = new ProgressTracker(config.maxInflightMsgs());
        this.replication = new Replication(this);
        this.election = new Election(this);
        this.follower = new FollowerRole(this);
        this.candidate = new CandidateRole(this);
        this.leader = new LeaderRole(this);
        InitialState st = storage.initialState();
        resetMembership(st.confState());
        HardState hs = st.hardState();
        if (!hs.equals(HardState.getDefaultInstance())) {
            loadState(hs);
        }
        if (config.applied() > 0) {
            if (config.applied() > log.committed()) {
                throw new IllegalArgumentException("applied index " + config.applied()
                        + " is greater than the committed index " + log.committed());
            }
            log.appliedTo(config.applied());
        }
        becomeFollower(term, NONE);
    }

    private void loadState(HardState hs) {
        if (hs.getCommit() > log.lastIndex()) {
            throw new IllegalStateException("hard state commit " + hs.getCommit() + " is out of range [last index "
                    + log.lastIndex() + "]");
        }
        log.commitTo(hs.getCommit());
        term = hs.getTerm();
        vote = hs.getVote();
    }

    HardState hardState() {
        return HardState.newBuilder().setTerm(term).setVote(vote).setCommit(log.committed()).build();
    }

    /**
     * Whether the hard state is set (not all zero) and differs from {@code prev}: what
     * {@link RawNode#hasReady} asks each turn, without building a HardState.
     */
    boolean hardStateDiffers(HardState prev) {
        long commit = log.committed();
        boolean unset = term == 0 && vote == 0 && commit == 0;
        return !unset && (term != prev.getTerm() || vote != prev.getVote() || commit != prev.getCommit());
    }

    SoftState softState() {
        return new SoftState(lead, role);
    }

    /** Can this node campaign: a voter of the current configuration, not in the middle of installing a snapshot. */
    boolean promotable() {
        Progress pr = tracker.progress(id);
        return pr != null && !pr.isLearner() && !log.hasPendingSnapshot();
    }

    // ---- role changes -------------------------------------------------------------------------

    void becomeFollower(long newTerm, long newLead) {
        behavior = follower;
        reset(newTerm);
        lead = newLead;
        role = RaftRole.FOLLOWER;
    }

    void becomeCandidate() {
        if (role == RaftRole.LEADER) {
            throw new IllegalStateException("invalid transition [leader -> candidate]");
        }
        behavior = candidate;
        reset(term + 1);
        vote = id;
        role = RaftRole.CANDIDATE;
    }

    /** Pre-candidates keep their term and vote: a failed pre-vote leaves no trace on the cluster. */
    void becomePreCandidate() {
        if (role == RaftRole.LEADER) {
            throw new IllegalStateException("invalid transition [leader -> pre-candidate]");
        }
        behavior = candidate;
        tracker.resetVotes();
        lead = NONE;
        role = RaftRole.PRE_CANDIDATE;
    }

    void becomeLeader() {
        if (role == RaftRole.FOLLOWER) {
            throw new IllegalStateException("invalid transition [follower -> leader]");
        }
        behavior = leader;
        reset(term);
        lead = id;
        role = RaftRole.LEADER;
        tracker.progress(id).becomeReplicate();
        // Conservatively treat any conf change in the inherited tail as pending.
        pendingConfIndex = log.lastIndex();
        // The empty entry of the new term lets earlier-term entries commit (Raft §5.4.2) and
        // confirms leadership for ReadIndex; a single voter commits it right here.
        appendEntries(List.of(Entry.newBuilder().setType(EntryType.EntryNormal)));
        uncommittedSize = 0;
    }

    private void reset(long newTerm) {
        if (term != newTerm) {
            term = newTerm;
            vote = NONE;
        }
        lead = NONE;
        electionElapsed = 0;
        heartbeatElapsed = 0;
        randomizedElectionTimeout = config.electionTick() + config.random().nextInt(config.electionTick());
        leadTransferee = NONE;
        tracker.resetVotes();
        long last = log.lastIndex();
        for (Map.Entry<Long, Progress> e : tracker.allProgress().entrySet()) {
            e.getValue().reset(e.getKey() == id ? last : 0, last + 1);
        }
        pendingConfIndex = 0;
        deferredConfChanges.clear();
        uncommittedSize = 0;
        readIndexQueue = new ReadIndexQueue();
        pendingReadIndexMessages.clear();
    }

    // ---- ticking --------------------------------------------------------------------------------

    void tick() {
        if (role == RaftRole.LEADER) {
            tickHeartbeat();
        } else {
            tickElection();
        }
    }

    private void tickElection() {
        electionElapsed++;
        if (!promotable()) {
            return;
        }
        // A sole voter needs no timeout: no one else can win (etcd fast-forwards that election too).
        // hup still refuses while a committed conf change is unapplied, so a node replaying its
        // membership never mistakes a partial configuration for a one-voter cluster.
        boolean soleVoter = tracker.voters().size() == 1 && tracker.isVoter(id);
        if (soleVoter || electionElapsed >= randomizedElectionTimeout) {
            electionElapsed = 0;
            hup(config.preVote() ? CampaignType.PRE_ELECTION : CampaignType.ELECTION);
        }
    }

    private void tickHeartbeat() {
        heartbeatElapsed++;
        electionElapsed++;
        if (electionElapsed >= config.electionTick()) {
            electionElapsed = 0;
            if (config.checkQuorum()) {
                leader.checkQuorum();
            }
            // A transfer that did not finish within an election timeout is abandoned.
            if (role == RaftRole.LEADER) {
                leadTransferee = NONE;
            }
        }
        if (role != RaftRole.LEADER) {
            return;
        }
        if (heartbeatElapsed >= config.heartbeatTick()) {
            heartbeatElapsed = 0;
            replication.bcastHeartbeat();
        }
    }

    // ---- elections (see Election) --------------------------------------------------------------

    void hup(CampaignType type) {
        election.hup(type);
    }

    void campaign(CampaignType type) {
        election.campaign(type);
    }

    VoteResult poll(long from, boolean granted) {
        tracker.recordVote(from, granted);
        return tracker.tallyVotes();
    }

    // ---- message entry point ----------------------------------------------------------------------

    void step(Message m) {
        if (m.getTerm() == 0) {
            // Local message (or a proposal/read forwarded by a follower): no term to check.
        } else if (m.getTerm() > term) {
            if (isVoteRequest(m.getType())) {
                boolean force = m.getContext().equals(CAMPAIGN_TRANSFER);
                boolean inLease = config.checkQuorum() && lead != NONE && electionElapsed < config.electionTick();
                if (!force && inLease) {
                    // Leader lease: we heard from a live leader recently, so this candidate is
                    // disruptive (e.g. partitioned or removed); do not even raise our term.
                    return;
                }
            }
            if (m.getType() == MessageType.MsgPreVote) {
                // Never change our term for a pre-vote.
            } else if (m.getType() == MessageType.MsgPreVoteResp && !m.getReject()) {
                // Our pre-vote grant carries the future term; the real election raises it.
            } else if (m.getType() == MessageType.MsgApp || m.getType() == MessageType.MsgHeartbeat
                    || m.getType() == MessageType.MsgSnap) {
                becomeFollower(m.getTerm(), m.getFrom());
            } else {
                becomeFollower(m.getTerm(), NONE);
            }
        } else if (m.getTerm() < term) {
            if ((config.checkQuorum() || config.preVote())
                    && (m.getType() == MessageType.MsgHeartbeat || m.getType() == MessageType.MsgApp)) {
                // A stale leader that cannot see the higher term (pre-vote/lease kept it from
                // rising) must learn it, or it would never step down.
                send(Message.newBuilder().setType(MessageType.MsgAppResp).setTo(m.getFrom()));
            } else if (isVoteRequest(m.getType())) {
                // Refuse with our term so a candidate that fell behind catches up: otherwise a
                // voter with a lagging configuration can keep one term ahead of it forever.
                MessageType resp = m.getType() == MessageType.MsgVote ? MessageType.MsgVoteResp : MessageType.MsgPreVoteResp;
                send(Message.newBuilder().setType(resp).setTo(m.getFrom()).setTerm(term).setReject(true));
            }
            return;
        }
        switch (m.getType()) {
            case MsgHup -> hup(config.preVote() ? CampaignType.PRE_ELECTION : CampaignType.ELECTION);
            case MsgVote, MsgPreVote -> election.handleVoteRequest(m);
            default -> behavior.step(m);
        }
    }

    static boolean isVoteRequest(MessageType t) {
        return t == MessageType.MsgVote || t == MessageType.MsgPreVote;
    }

    // ---- log ------------------------------------------------------------------------------------

    /** Appends entries of the current term; false (nothing appended) when over the uncommitted limit. */
    boolean appendEntries(List<Entry.Builder> entries) {
        long last = log.lastIndex();
        List<Entry> ents = new ArrayList<>(entries.size());
        long size = 0;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i).setTerm(term).setIndex(last + 1 + i).build();
            size += e.getData().size();
            ents.add(e);
        }
        long limit = config.maxUncommittedEntriesSize();
        if (limit > 0 && uncommittedSize > 0 && size > 0 && uncommittedSize + size > limit) {
            return false;
        }
        uncommittedSize += size;
        long newLast = log.append(ents);
        tracker.progress(id).maybeUpdate(newLast);
        maybeCommit();
        return true;
    }

    /**
     * Called when the applied index moved: once the pending conf change is applied, the deferred
     * ones are proposed again, the first accepted and the others deferred anew behind it.
     */
    void proposeDeferredConfChanges() {
        if (role != RaftRole.LEADER || deferredConfChanges.isEmpty() || pendingConfIndex > log.applied()) {
            return;
        }
        List<Message> again = new ArrayList<>(deferredConfChanges);
        deferredConfChanges.clear();
        for (Message m : again) {
            try {
                step(m);
            } catch (ProposalDroppedException e) {
                // refused for good now (e.g. a leadership transfer began): its proposer times out
            }
        }
    }

    void reduceUncommittedSize(List<Entry> committed) {
        if (role != RaftRole.LEADER) {
            return;
        }
        long size = 0;
        for (Entry e : committed) {
            size += e.getData().size();
        }
        uncommittedSize = Math.max(0, uncommittedSize - size);
    }

    /** Advances the commit index to what a quorum holds, if that entry is of this term. */
    boolean maybeCommit() {
        if (!log.maybeCommit(tracker.committed(), term)) {
            return false;
        }
        leader.releasePendingReadIndexMessages();
        return true;
    }

    boolean committedEntryInCurrentTerm() {
        return log.termOrZero(log.committed()) == term;
    }

    /** Installs a leader's snapshot; false when it is stale or already covered by our log. */
    boolean restore(Snapshot s) {
        long index = s.getMetadata().getIndex();
        if (index <= log.committed()) {
            return false;
        }
        // The snapshot's membership may not list us yet: a member added after the snapshot was
        // taken catches up through it and then applies its own addition from the log.
        ConfState cs = s.getMetadata().getConfState();
        if (log.matchTerm(index, s.getMetadata().getTerm())) {
            // We already hold that entry: just fast-forward the commit index.
            log.commitTo(index);
            return false;
        }
        log.restore(s);
        resetMembership(cs);
        return true;
    }

    private void resetMembership(ConfState cs) {
        tracker.clear();
        long last = log.lastIndex();
        for (long v : cs.getVotersList()) {
            tracker.addVoter(v, v == id ? last : 0, last + 1);
        }
        for (long l : cs.getLearnersList()) {
            tracker.addLearner(l, l == id ? last : 0, last + 1);
        }
    }

    ConfState applyConfChange(ConfChange cc) {
        ConfChanges.apply(this, cc);
        return tracker.confState();
    }

    // ---- output ---------------------------------------------------------------------------------

    void send(Message.Builder m) {
        outbox.send(m, term);
    }
}
