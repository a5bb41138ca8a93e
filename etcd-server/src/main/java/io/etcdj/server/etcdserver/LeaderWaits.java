package io.etcdj.server.etcdserver;

import io.etcdj.server.error.EtcdError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

/**
 * Callers waiting for a given member to become leader (a leader transfer): each completes when
 * the raft thread reports that leader, or fails with etcd's leader transfer timeout at its deadline,
 * which the timer sweep checks. Nothing sleeps or polls in between.
 */
final class LeaderWaits {
    private record Wait(long target, long deadlineNanos, CompletableFuture<Void> done) {
    }

    private final Executor completer;
    private final List<Wait> waits = new ArrayList<>();

    /** {@code completer}: where the futures complete (never the raft thread, which must not run callers' code). */
    LeaderWaits(Executor completer) {
        this.completer = completer;
    }

    /**
     * Completes once {@code target} leads; fails with etcd's "etcdserver: request timed out,
     * leader transfer took too long" after {@code deadlineNanos}.
     */
    synchronized CompletableFuture<Void> await(long target, long deadlineNanos) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waits.add(new Wait(target, deadlineNanos, f));
        return f;
    }

    /** The raft thread saw {@code lead} become (or stay) leader. */
    void leaderIs(long lead) {
        List<Wait> reached = take(w -> w.target() == lead);
        if (!reached.isEmpty()) {
            completer.execute(() -> reached.forEach(w -> w.done().complete(null)));
        }
    }

    /** Fails the waits whose deadline has passed at {@code nowNanos}. */
    void expire(long nowNanos) {
        for (Wait w : take(w -> nowNanos - w.deadlineNanos() > 0)) {
            w.done().completeExceptionally(EtcdError.TIMEOUT_LEADER_TRANSFER.exception());
        }
    }

    /** Fails every wait: the member stops. */
    void failAll(RuntimeException e) {
        for (Wait w : take(w -> true)) {
            w.done().completeExceptionally(e);
        }
    }

    private synchronized List<Wait> take(Predicate<Wait> which) {
        if (waits.isEmpty()) {
            return List.of();
        }
        List<Wait> taken = new ArrayList<>();
        waits.removeIf(w -> which.test(w) && taken.add(w));
        return taken;
    }
}
