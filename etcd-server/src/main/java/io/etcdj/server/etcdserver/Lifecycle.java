package io.etcdj.server.etcdserver;

import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.version.Versions;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Where a member is in its life: starting until its attributes are published (which it does),
 * running, stopping for a failure, closed. The classes the server builds ask it before they start work and report
 * failures through it, so the member stops once, whoever sees the failure first.
 */
final class Lifecycle {
    /** Set by the first failure that stops the member ({@link #stopForFailure}). */
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Completes once this member's attributes are committed. */
    private final CompletableFuture<Void> published = new CompletableFuture<>();
    /** Run once, by the first failure: the embedding process stops the member. */
    private final Runnable onFatal;
    private final Log log;
    private volatile boolean closed;

    Lifecycle(Runnable onFatal, LogSink logs) {
        this.onFatal = onFatal;
        this.log = logs.logger("etcdserver/server");
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

    /**
     * Publishes this member's attributes through Raft (etcd's publishV3), retrying each request
     * timeout until it is applied or the member closes. Blocks: run it off the timer thread, whose
     * sweeps fail proposals that time out.
     */
    void publish(Proposer proposer, MemberAttributes attrs, LongSupplier clusterId, long requestTimeoutMillis) {
        while (!closed && !isPublished()) {
            try {
                proposer.propose(InternalRaftRequest.newBuilder().setPublish(attrs))
                        .get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
                published.complete(null);
                log.info("published local member to cluster through raft",
                        "local-member-id", MemberIds.hex(attrs.getMemberId()),
                        "local-member-attributes", "{Name:" + attrs.getName() + " ClientURLs:" + attrs.getClientUrlsList() + "}",
                        "cluster-id", MemberIds.hex(clusterId.getAsLong()));
                log.info("enabled capabilities for version", "cluster-version", Versions.CLUSTER.substring(0, 3));
            } catch (Exception e) {
                if (!closed) {
                    log.warn("failed to publish local member to cluster through raft",
                            "error", e.getCause() != null ? e.getCause().getMessage() : String.valueOf(e));
                }
            }
        }
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
