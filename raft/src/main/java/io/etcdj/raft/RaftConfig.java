package io.etcdj.raft;

import java.util.Objects;
import java.util.Random;

/**
 * Immutable settings of one Raft node. Times are counted in ticks: the driver decides how long a
 * tick is, the core never reads a clock.
 */
public final class RaftConfig {
    public static final int DEFAULT_ELECTION_TICK = 10;
    public static final int DEFAULT_HEARTBEAT_TICK = 1;
    public static final long DEFAULT_MAX_SIZE_PER_MSG = 1024 * 1024;
    public static final int DEFAULT_MAX_INFLIGHT_MSGS = 256;
    public static final long DEFAULT_MAX_UNCOMMITTED_ENTRIES_SIZE = 0;

    private final long id;
    private final int electionTick;
    private final int heartbeatTick;
    private final long maxSizePerMsg;
    private final int maxInflightMsgs;
    private final long maxUncommittedEntriesSize;
    private final boolean checkQuorum;
    private final boolean preVote;
    private final Random random;
    private final long applied;
    private final boolean asyncApply;

    private RaftConfig(Builder b) {
        if (b.id == 0) {
            throw new IllegalArgumentException("raft id must not be zero");
        }
        if (b.heartbeatTick <= 0) {
            throw new IllegalArgumentException("heartbeat tick must be greater than 0");
        }
        if (b.electionTick <= b.heartbeatTick) {
            throw new IllegalArgumentException("election tick must be greater than heartbeat tick");
        }
        if (b.maxInflightMsgs <= 0) {
            throw new IllegalArgumentException("max inflight messages must be greater than 0");
        }
        if (b.maxSizePerMsg <= 0 || b.maxUncommittedEntriesSize < 0 || b.applied < 0) {
            throw new IllegalArgumentException("sizes and applied index must not be negative");
        }
        this.id = b.id;
        this.electionTick = b.electionTick;
        this.heartbeatTick = b.heartbeatTick;
        this.maxSizePerMsg = b.maxSizePerMsg;
        this.maxInflightMsgs = b.maxInflightMsgs;
        this.maxUncommittedEntriesSize = b.maxUncommittedEntriesSize;
        this.checkQuorum = b.checkQuorum;
        this.preVote = b.preVote;
        // A fixed default seed keeps even an unconfigured node deterministic.
        this.random = b.random != null ? b.random : new Random(b.id);
        this.applied = b.applied;
        this.asyncApply = b.asyncApply;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().id(id).electionTick(electionTick).heartbeatTick(heartbeatTick)
                .maxSizePerMsg(maxSizePerMsg).maxInflightMsgs(maxInflightMsgs)
                .maxUncommittedEntriesSize(maxUncommittedEntriesSize).checkQuorum(checkQuorum)
                .preVote(preVote).random(random).applied(applied).asyncApply(asyncApply);
    }

    /** This node's id; never zero (zero means "none" on the wire). */
    public long id() {
        return id;
    }

    /** Ticks without leader contact before a follower campaigns; the real timeout is drawn from [n, 2n). */
    public int electionTick() {
        return electionTick;
    }

    /** Ticks between leader heartbeats. */
    public int heartbeatTick() {
        return heartbeatTick;
    }

    /** Upper bound on the entry bytes in one append message (at least one entry is always sent). */
    public long maxSizePerMsg() {
        return maxSizePerMsg;
    }

    /** Append messages a leader keeps in flight to one follower in the replicate state. */
    public int maxInflightMsgs() {
        return maxInflightMsgs;
    }

    /** Payload bytes a leader accepts uncommitted before dropping proposals; 0 is unlimited. */
    public long maxUncommittedEntriesSize() {
        return maxUncommittedEntriesSize;
    }

    /** Leader steps down without quorum contact for an election timeout; followers honour a leader lease. */
    public boolean checkQuorum() {
        return checkQuorum;
    }

    /** Run a pre-vote round before raising the term. */
    public boolean preVote() {
        return preVote;
    }

    /** The only source of randomness (election timeouts). */
    public Random random() {
        return random;
    }

    /** Last index the application applied before a restart; committed entries up to it are not re-delivered. */
    public long applied() {
        return applied;
    }

    /**
     * Whether the application applies committed entries after {@link RawNode#advance} returns (on
     * another thread) and reports progress with {@link RawNode#appliedTo}. When false,
     * {@code advance} itself marks the Ready's committed entries applied. Either way the node
     * never campaigns while a committed conf change is not applied, so it cannot act on a
     * membership the application has not reached.
     */
    public boolean asyncApply() {
        return asyncApply;
    }

    /** Builder with etcd's defaults. */
    public static final class Builder {
        private long id;
        private int electionTick = DEFAULT_ELECTION_TICK;
        private int heartbeatTick = DEFAULT_HEARTBEAT_TICK;
        private long maxSizePerMsg = DEFAULT_MAX_SIZE_PER_MSG;
        private int maxInflightMsgs = DEFAULT_MAX_INFLIGHT_MSGS;
        private long maxUncommittedEntriesSize = DEFAULT_MAX_UNCOMMITTED_ENTRIES_SIZE;
        private boolean checkQuorum = true;
        private boolean preVote = true;
        private Random random;
        private long applied;
        private boolean asyncApply;

        private Builder() {
        }

        public Builder id(long value) {
            this.id = value;
            return this;
        }

        public Builder electionTick(int value) {
            this.electionTick = value;
            return this;
        }

        public Builder heartbeatTick(int value) {
            this.heartbeatTick = value;
            return this;
        }

        public Builder maxSizePerMsg(long value) {
            this.maxSizePerMsg = value;
            return this;
        }

        public Builder maxInflightMsgs(int value) {
            this.maxInflightMsgs = value;
            return this;
        }

        public Builder maxUncommittedEntriesSize(long value) {
            this.maxUncommittedEntriesSize = value;
            return this;
        }

        public Builder checkQuorum(boolean value) {
            this.checkQuorum = value;
            return this;
        }

        public Builder preVote(boolean value) {
            this.preVote = value;
            return this;
        }

        public Builder random(Random value) {
            this.random = Objects.requireNonNull(value, "random");
            return this;
        }

        public Builder applied(long value) {
            this.applied = value;
            return this;
        }

        public Builder asyncApply(boolean value) {
            this.asyncApply = value;
            return this;
        }

        public RaftConfig build() {
            return new RaftConfig(this);
        }
    }
}
