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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * Proposals Raft dropped (no leader yet, a leader transfer), and those a follower could not forward
 * because its leader is unreachable (its stream to the leader closed: a leader killed a moment ago,
 * which the followers only give up on after an election timeout): kept and retried each tick and
 * when a new leader is known, and failed with "no leader" once they have waited longer than the
 * limit. A proposal forwarded into a dead connection would be lost, and its client would wait for its
 * own timeout, with a write that might or might not have happened. Used in the Raft loop's turns only.
 */
final class ParkedProposals {
    private record Parked(ByteString data, ConfChange confChange, CompletableFuture<?> owner, long sinceNanos) {
    }

    private final RawNode node;
    private final Clock clock;
    private final long limitNanos;
    /** Completes callers' futures, so nothing a caller chained onto them runs in a turn. */
    private final Executor completer;
    private final Deque<Parked> parked = new ArrayDeque<>();
    /** Whether a proposal can reach the leader now (true with no leader: Raft then drops it). */
    private final BooleanSupplier leaderReachable;

    ParkedProposals(RawNode node, Clock clock, long limitNanos, Executor completer, BooleanSupplier leaderReachable) {
        this.node = node;
        this.leaderReachable = leaderReachable;
        this.clock = clock;
        this.limitNanos = limitNanos;
        this.completer = completer;
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
            if (!leaderReachable.getAsBoolean()) {
                throw new ProposalDroppedException("leader unreachable");
            }
            if (p.confChange() != null) {
                node.proposeConfChange(p.confChange());
            } else {
                node.propose(p.data());
            }
        } catch (ProposalDroppedException e) {
            if (clock.nanoTime() - p.sinceNanos() > limitNanos) {
                completer.execute(() -> p.owner().completeExceptionally(EtcdError.NO_LEADER.exception()));
            } else {
                parked.add(p);
            }
        }
    }

    /** Tries every parked proposal again (once a tick, and when a leader is found). */
    void retry() {
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
