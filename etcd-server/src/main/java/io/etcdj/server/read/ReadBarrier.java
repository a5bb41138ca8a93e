package io.etcdj.server.read;

import io.etcdj.server.wait.PerExecutor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Linearizable reads (etcd's ReadIndex path): reads that arrive while one ReadIndex request is in
 * flight share the next one; each batch completes once the member has applied up to the index
 * the leader confirmed. Called from the raft loop and the apply loop; synchronized. What a read
 * does next (the range, the response) must never run on the raft or the apply thread: a read
 * enqueued on a thread that runs tasks of its own (a connection's event loop, where the request
 * arrived and where its answer is written) is released there, the others on {@code completer};
 * the reads of one release cost one task per executor. A release made on the reads' own loop (the
 * Raft turn that a follower's heartbeat response brought there) runs them at once, and their
 * answers leave when it returns ({@code wait.InlineExecutor}).
 */
public final class ReadBarrier {
    /** What {@link #nextRequest} returns when no request is to be issued: never a context. */
    public static final long NO_REQUEST = 0;

    /** A read and the executor it is released on. */
    private record Waiting(CompletableFuture<Void> read, Executor on) {
    }

    private final Executor completer;
    /** The executor of the enqueuing thread's own loop, or null when it has none. */
    private final Supplier<Executor> callerLoop;
    private final Runnable onStaleBatch;
    private List<Waiting> waiting = new ArrayList<>();
    /**
     * Batches asked for and not yet answered, by request context. A batch asked for again after a
     * timeout stays under its old context too: on slow links the first answer may still arrive,
     * and whichever comes first completes it.
     */
    private final Map<Long, List<Waiting>> inFlight = new HashMap<>();
    private List<Waiting> latest;
    private long latestSinceNanos;
    /**
     * The contexts of this member's requests, never {@link #NO_REQUEST}. They must differ from
     * every other member's: the leader keeps one pending request per context and drops a second
     * one that arrives with the same (etcd's raft alike), so two members counting from 1 lost one
     * of two concurrent reads until the retry, a second later.
     */
    private final LongSupplier contexts;
    private final TreeMap<Long, List<Waiting>> byIndex = new TreeMap<>();
    private long applied;

    /** A barrier whose request contexts count from 1 (one member alone: tests). */
    public ReadBarrier(Executor completer) {
        this(completer, () -> null);
    }

    public ReadBarrier(Executor completer, Supplier<Executor> callerLoop) {
        this(completer, callerLoop, () -> { }, new AtomicLong()::incrementAndGet);
    }

    /**
     * {@code onStaleBatch} counts each batch answered by a stale confirmation (etcd_server_slow_read_indexes_total);
     * {@code contexts} gives request contexts unique in the cluster (the member's request IDs, as etcd's).
     */
    public ReadBarrier(Executor completer, Supplier<Executor> callerLoop, Runnable onStaleBatch, LongSupplier contexts) {
        this.completer = completer;
        this.callerLoop = callerLoop;
        this.onStaleBatch = onStaleBatch;
        this.contexts = contexts;
    }

    public CompletableFuture<Void> enqueue() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        Executor loop = callerLoop.get();
        Waiting w = new Waiting(f, loop != null ? loop : completer);
        synchronized (this) {
            waiting.add(w);
        }
        return f;
    }

    /**
     * Called by the raft loop: returns the context of a new ReadIndex request to issue, or {@link #NO_REQUEST}.
     * Reads waiting while a request is unanswered join the next one; a request unanswered for
     * {@code retryNanos} (no leader, lost message) is asked again with everything waiting.
     */
    public synchronized long nextRequest(long nowNanos, long retryNanos) {
        boolean stale = latest != null && nowNanos - latestSinceNanos > retryNanos;
        if (latest != null && !stale) {
            return NO_REQUEST;
        }
        List<Waiting> batch = new ArrayList<>(waiting);
        if (stale) {
            batch.addAll(latest);
        }
        batch.removeIf(w -> w.read().isDone());
        if (stale && !batch.isEmpty()) {
            onStaleBatch.run();
        }
        waiting = new ArrayList<>();
        if (batch.isEmpty()) {
            latest = null;
            return NO_REQUEST;
        }
        long ctx = contexts.getAsLong();
        inFlight.put(ctx, batch);
        latest = batch;
        latestSinceNanos = nowNanos;
        if (inFlight.size() > 64) {
            inFlight.keySet().removeIf(c -> inFlight.get(c).stream().allMatch(w -> w.read().isDone()));
        }
        return ctx;
    }

    /** The leader confirmed {@code index} for request {@code ctx}. */
    public void confirmed(long ctx, long index) {
        List<Waiting> batch;
        synchronized (this) {
            batch = inFlight.remove(ctx);
            if (batch == null) {
                return;
            }
            if (batch == latest) {
                latest = null;
            }
            if (index > applied) {
                byIndex.computeIfAbsent(index, k -> new ArrayList<>()).addAll(batch);
                return;
            }
        }
        release(batch); // outside the monitor: a read released on its own loop runs here and now
    }

    /** The apply loop reached {@code index}. */
    public void applied(long index) {
        List<Waiting> done = new ArrayList<>();
        synchronized (this) {
            applied = index;
            Map<Long, List<Waiting>> head = byIndex.headMap(index, true);
            head.values().forEach(done::addAll);
            head.clear();
        }
        if (!done.isEmpty()) {
            release(done);
        }
    }

    private void release(List<Waiting> batch) {
        PerExecutor.answer(batch, Waiting::on, w -> w.read().complete(null));
    }

    public synchronized void failAll(Throwable t) {
        waiting.forEach(w -> w.read().completeExceptionally(t));
        inFlight.values().forEach(l -> l.forEach(w -> w.read().completeExceptionally(t)));
        byIndex.values().forEach(l -> l.forEach(w -> w.read().completeExceptionally(t)));
    }
}
