package io.etcdj.server.etcdserver;

import com.google.protobuf.ByteString;
import io.etcdj.raft.ProposalDroppedException;
import io.etcdj.raft.RawNode;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.error.EtcdError;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * The proposals of this member's clients on their way to the leader. Those Raft dropped (no leader
 * yet, a leader transfer), and those a follower could not forward because its stream to the leader
 * has closed (a leader killed a moment ago, which followers give up on only after an election
 * timeout), are kept, retried each tick and as soon as a new leader is known, and failed with "no
 * leader" once they have waited longer than the limit: forwarded into a dead connection, a
 * proposal would be lost and its client would wait for its own deadline. A proposal forwarded to a
 * leader whose stream then closes may have been lost on the way: it fails at the next tick with
 * etcd's "request timed out, possibly due to connection lost" (its outcome is unknown, as after
 * etcd's request timeout), so its client can go on to the next leader. Used in the Raft loop's
 * turns only.
 */
final class ParkedProposals {
    private record Parked(ByteString data, ConfChange confChange, CompletableFuture<?> owner, long sinceNanos) {
    }

    private record Forwarded(CompletableFuture<?> owner, long leader) {
    }

    private final RawNode node;
    private final Clock clock;
    private final long limitNanos;
    /** Completes callers' futures, so nothing a caller chained onto them runs in a turn. */
    private final Executor completer;
    private final Deque<Parked> parked = new ArrayDeque<>();
    /** The leader a proposal goes to from here: its ID while this member follows one, else 0. */
    private final LongSupplier followedLeader;
    /** Whether a message to a member can leave now (its stream is open). */
    private final LongPredicate reachable;
    /** Proposals forwarded to a leader and not answered yet. */
    private final Deque<Forwarded> forwarded = new ArrayDeque<>();

    ParkedProposals(RawNode node, Clock clock, long limitNanos, Executor completer, LongSupplier followedLeader,
                    LongPredicate reachable) {
        this.node = node;
        this.clock = clock;
        this.limitNanos = limitNanos;
        this.completer = completer;
        this.followedLeader = followedLeader;
        this.reachable = reachable;
    }

    /** Proposes an entry ({@code data}) or a membership change ({@code confChange}) for {@code owner}, made at {@code sinceNanos}. */
    void propose(ByteString data, ConfChange confChange, CompletableFuture<?> owner, long sinceNanos) {
        tryPropose(new Parked(data, confChange, owner, sinceNanos));
    }

    private void tryPropose(Parked p) {
        if (p.owner().isDone()) {
            return;
        }
        try {
            long leader = followedLeader.getAsLong();
            if (leader != 0 && !reachable.test(leader)) {
                throw new ProposalDroppedException("leader " + Long.toHexString(leader) + " unreachable");
            }
            if (p.confChange() != null) {
                node.proposeConfChange(p.confChange());
            } else {
                node.propose(p.data());
            }
            if (leader != 0) {
                forwarded.add(new Forwarded(p.owner(), leader));
            }
        } catch (ProposalDroppedException e) {
            if (clock.nanoTime() - p.sinceNanos() > limitNanos) {
                completer.execute(() -> p.owner().completeExceptionally(EtcdError.NO_LEADER.exception()));
            } else {
                parked.add(p);
            }
        }
    }

    /**
     * Tries every parked proposal again (once a tick, and when a leader is found), after failing
     * those forwarded to a leader this member has lost its stream to.
     */
    void retry() {
        for (Iterator<Forwarded> it = forwarded.iterator(); it.hasNext();) {
            Forwarded f = it.next();
            if (f.owner().isDone()) {
                it.remove();
            } else if (!reachable.test(f.leader())) {
                it.remove();
                completer.execute(() -> f.owner().completeExceptionally(EtcdError.TIMEOUT_DUE_TO_CONNECTION_LOST.exception()));
            }
        }
        int n = parked.size();
        for (int i = 0; i < n; i++) {
            tryPropose(parked.poll());
        }
    }

    /** Fails what is still parked: the member stops. */
    void failAll() {
        List<Parked> left = new ArrayList<>(parked);
        left.forEach(p -> p.owner().completeExceptionally(EtcdError.STOPPED.exception()));
    }
}
