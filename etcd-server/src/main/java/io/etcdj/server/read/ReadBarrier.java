package io.etcdj.server.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Linearizable reads (etcd's ReadIndex path): reads that arrive while one ReadIndex request is in
 * flight share the next one; each batch completes once the member has applied up to the index
 * the leader confirmed. Called from the raft loop and the apply loop; synchronized. Reads are
 * completed on {@code completer}: what a read does next (the range, the response) must never run
 * on the raft or the apply thread.
 */
public final class ReadBarrier {
    private final Executor completer;
    private List<CompletableFuture<Void>> waiting = new ArrayList<>();
    /**
     * Batches asked for and not yet answered, by request context. A batch asked for again after a
     * timeout stays under its old context too: on slow links the first answer may still arrive,
     * and whichever comes first completes it.
     */
    private final Map<Long, List<CompletableFuture<Void>>> inFlight = new HashMap<>();
    private List<CompletableFuture<Void>> latest;
    private long latestSinceNanos;
    private long nextCtx = 1;
    private final TreeMap<Long, List<CompletableFuture<Void>>> byIndex = new TreeMap<>();
    private long applied;

    public ReadBarrier(Executor completer) {
        this.completer = completer;
    }

    public synchronized CompletableFuture<Void> enqueue() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiting.add(f);
        return f;
    }

    /**
     * Called by the raft loop: returns the context of a new ReadIndex request to issue, or -1.
     * Reads waiting while a request is unanswered join the next one; a request unanswered for
     * {@code retryNanos} (no leader, lost message) is asked again with everything waiting.
     */
    public synchronized long nextRequest(long nowNanos, long retryNanos) {
        boolean stale = latest != null && nowNanos - latestSinceNanos > retryNanos;
        if (latest != null && !stale) {
            return -1;
        }
        List<CompletableFuture<Void>> batch = new ArrayList<>(waiting);
        if (stale) {
            batch.addAll(latest);
        }
        batch.removeIf(CompletableFuture::isDone);
        if (stale && !batch.isEmpty()) {
            io.etcdj.server.metrics.Metrics.SLOW_READ_INDEXES.inc();
        }
        waiting = new ArrayList<>();
        if (batch.isEmpty()) {
            latest = null;
            return -1;
        }
        long ctx = nextCtx++;
        inFlight.put(ctx, batch);
        latest = batch;
        latestSinceNanos = nowNanos;
        if (inFlight.size() > 64) {
            inFlight.keySet().removeIf(c -> inFlight.get(c).stream().allMatch(CompletableFuture::isDone));
        }
        return ctx;
    }

    /** The leader confirmed {@code index} for request {@code ctx}. */
    public synchronized void confirmed(long ctx, long index) {
        List<CompletableFuture<Void>> batch = inFlight.remove(ctx);
        if (batch == null) {
            return;
        }
        if (batch == latest) {
            latest = null;
        }
        if (index <= applied) {
            release(batch);
        } else {
            byIndex.computeIfAbsent(index, k -> new ArrayList<>()).addAll(batch);
        }
    }

    /** The apply loop reached {@code index}. */
    public void applied(long index) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
            applied = index;
            Map<Long, List<CompletableFuture<Void>>> head = byIndex.headMap(index, true);
            head.values().forEach(done::addAll);
            head.clear();
        }
        if (!done.isEmpty()) {
            release(done);
        }
    }

    private void release(List<CompletableFuture<Void>> batch) {
        completer.execute(() -> batch.forEach(f -> f.complete(null)));
    }

    public synchronized void failAll(Throwable t) {
        waiting.forEach(f -> f.completeExceptionally(t));
        inFlight.values().forEach(l -> l.forEach(f -> f.completeExceptionally(t)));
        byIndex.values().forEach(l -> l.forEach(f -> f.completeExceptionally(t)));
    }
}
