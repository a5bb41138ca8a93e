package io.etcdj.server.etcdserver;

import io.etcdj.server.error.EtcdError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where a member is in its life: starting until its attributes are published, running, stopping
 * for a failure, closed. The classes the server builds ask it before they start work and report
 * failures through it, so the member stops once, whoever sees the failure first.
 */
final class Lifecycle {
    /** Set by the first failure that stops the member ({@link #stopForFailure}). */
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Completes once this member's attributes are committed. */
    private final CompletableFuture<Void> published = new CompletableFuture<>();
    /** Run once, by the first failure: the embedding process stops the member. */
    private final Runnable onFatal;
    private volatile boolean closed;

    Lifecycle(Runnable onFatal) {
        this.onFatal = onFatal;
    }

    boolean closed() {
        return closed;
    }

    /** Closed, or stopping for a failure: a second failure must not be logged or acted on again. */
    boolean stoppingOrClosed() {
        return closed || stopping.get();
    }

    /** Marks the member closed; false if it already was. */
    boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        published.completeExceptionally(EtcdError.STOPPED.exception());
        return true;
    }

    CompletableFuture<Void> published() {
        return published;
    }

    boolean isPublished() {
        return published.isDone() && !published.isCompletedExceptionally();
    }

    void markPublished() {
        published.complete(null);
    }

    /**
     * Stops the member for a failure, the first time only: whichever of the raft loop, the apply
     * loop, the backend sync or a removal asks first wins, and a second failure seen while the
     * member stops (the other loop failing as the storage closes under it) must not log or stop
     * it again. Returns whether this call stopped it.
     */
    boolean stopForFailure() {
        if (closed || !stopping.compareAndSet(false, true)) {
            return false;
        }
        // a start-up still waiting to be published (a restart replaying entries onto a full disk)
        // must end too, not wait for a publish that can no longer be applied
        published.completeExceptionally(EtcdError.STOPPED.exception());
        onFatal.run();
        return true;
    }
}
