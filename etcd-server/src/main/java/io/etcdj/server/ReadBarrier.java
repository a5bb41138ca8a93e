package io.etcdj.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Linearizable reads (etcd's ReadIndex path): reads that arrive while one ReadIndex request is in
 * flight share the next one; each batch completes once the member has applied up to the index
 * the leader confirmed. Called from the raft loop and the apply loop; synchronized.
 */
final class ReadBarrier {
    private List<CompletableFuture<Void>> waiting = new ArrayList<>();
    private List<CompletableFuture<Void>> inFlight;
    private long inFlightCtx;
    private long inFlightSinceNanos;
    private long nextCtx = 1;
    private final TreeMap<Long, List<CompletableFuture<Void>>> byIndex = new TreeMap<>();
    private long applied;

    synchronized CompletableFuture<Void> enqueue() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiting.add(f);
        return f;
    }

    /**
     * Called by the raft loop: returns the context of a new ReadIndex request to issue, or -1.
     * A request unanswered for {@code retryNanos} (no leader, lost message) is issued again.
     */
    synchronized long nextRequest(long nowNanos, long retryNanos) {
        if (inFlight != null && nowNanos - inFlightSinceNanos > retryNanos) {
            inFlight.addAll(waiting);
            waiting = inFlight;
            inFlight = null;
        }
        if (inFlight != null || waiting.isEmpty()) {
            return -1;
        }
        inFlight = waiting;
        waiting = new ArrayList<>();
        inFlightCtx = nextCtx++;
        inFlightSinceNanos = nowNanos;
        return inFlightCtx;
    }

    /** The leader confirmed {@code index} for request {@code ctx}. */
    synchronized void confirmed(long ctx, long index) {
        if (inFlight == null || ctx != inFlightCtx) {
            return;
        }
        List<CompletableFuture<Void>> batch = inFlight;
        inFlight = null;
        if (index <= applied) {
            batch.forEach(f -> f.complete(null));
        } else {
            byIndex.computeIfAbsent(index, k -> new ArrayList<>()).addAll(batch);
        }
    }

    /** The apply loop reached {@code index}. */
    void applied(long index) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
            applied = index;
            Map<Long, List<CompletableFuture<Void>>> head = byIndex.headMap(index, true);
            head.values().forEach(done::addAll);
            head.clear();
        }
        done.forEach(f -> f.complete(null));
    }

    synchronized void failAll(Throwable t) {
        waiting.forEach(f -> f.completeExceptionally(t));
        if (inFlight != null) {
            inFlight.forEach(f -> f.completeExceptionally(t));
        }
        byIndex.values().forEach(l -> l.forEach(f -> f.completeExceptionally(t)));
    }
}
