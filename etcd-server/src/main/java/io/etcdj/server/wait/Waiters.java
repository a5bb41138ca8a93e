package io.etcdj.server.wait;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Client calls waiting for their proposals to be applied, by request ID. Completing a call builds
 * and sends its response, so it runs on {@code completer}, not on the apply loop that every write
 * goes through; the calls of one applied batch are completed by one task, so a batch of a hundred
 * writes costs one hand-off, not a hundred. A call registered on a thread that runs tasks of its
 * own (a connection's event loop, where a client's request arrives and where its response is
 * written anyway) is completed there instead: one hand-off fewer per write. When the batch was
 * applied on that very loop (a Raft turn that a peer's acknowledgement brought there), its calls
 * are answered at once, before the turn's remaining work ({@link InlineExecutor}).
 *
 * <p>A call that is not answered within its timeout fails with a {@link TimeoutException} when
 * {@link #expire()} next runs (the server runs it on a timer). One sweep over the pending calls
 * replaces a timer task per call, which at thousands of writes a second filled the JDK's shared
 * delay queue with cancelled tasks.
 *
 * <p>{@code R} is what a call is answered with (the server's apply result): this package only
 * hands it over and knows nothing of applying.
 */
public final class Waiters<R> {
    /** A request this member proposed, applied with {@code result}. */
    public record Done<R>(long id, R result) {
    }

    private record Pending<R>(CompletableFuture<R> future, long deadlineNanos, Executor answerOn) {
    }

    private final ConcurrentHashMap<Long, Pending<R>> pending = new ConcurrentHashMap<>();
    private final Executor completer;
    private final LongSupplier clock;
    /** The executor of the registering thread's own loop, or null when it has none. */
    private final Supplier<Executor> callerLoop;

    public Waiters(Executor completer) {
        this(completer, System::nanoTime);
    }

    public Waiters(Executor completer, LongSupplier nanoClock) {
        this(completer, nanoClock, () -> null);
    }

    public Waiters(Executor completer, LongSupplier nanoClock, Supplier<Executor> callerLoop) {
        this.completer = completer;
        this.clock = nanoClock;
        this.callerLoop = callerLoop;
    }

    /** Proposals waiting for their apply (etcd's etcd_server_proposals_pending). */
    public int pending() {
        return pending.size();
    }

    /** A call that waits without a deadline (it ends by {@link #complete} or {@link #failAll}). */
    public CompletableFuture<R> register(long id) {
        return register(id, Long.MAX_VALUE);
    }

    /** A call that fails with a {@link TimeoutException} once {@code timeoutNanos} have passed unanswered. */
    public CompletableFuture<R> register(long id, long timeoutNanos) {
        CompletableFuture<R> f = new CompletableFuture<>();
        long now = clock.getAsLong();
        long deadline = timeoutNanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeoutNanos;
        Executor loop = callerLoop.get();
        pending.put(id, new Pending<>(f, deadline, loop != null ? loop : completer));
        return f;
    }

    public void complete(long id, R r) {
        completeAll(List.of(new Done<>(id, r)));
    }

    /**
     * Answers the calls of an applied batch (ids nobody waits for here are skipped) with one task
     * per executor they are answered on.
     */
    public void completeAll(List<Done<R>> done) {
        List<Answer<R>> answers = new ArrayList<>(done.size());
        for (Done<R> d : done) {
            Pending<R> p = pending.remove(d.id());
            if (p != null) {
                answers.add(new Answer<>(p, d.result()));
            }
        }
        PerExecutor.answer(answers, a -> a.call().answerOn(), a -> a.call().future().complete(a.result()));
    }

    private record Answer<R>(Pending<R> call, R result) {
    }

    /**
     * Fails the calls whose deadline has passed and forgets those already ended elsewhere (a
     * proposal Raft refused); returns how many timed out.
     */
    public int expire() {
        long now = clock.getAsLong();
        int n = 0;
        for (Iterator<Map.Entry<Long, Pending<R>>> it = pending.entrySet().iterator(); it.hasNext();) {
            Pending<R> p = it.next().getValue();
            if (p.future().isDone()) {
                it.remove();
            } else if (p.deadlineNanos() != Long.MAX_VALUE && p.deadlineNanos() - now <= 0) {
                it.remove();
                p.future().completeExceptionally(new TimeoutException());
                n++;
            }
        }
        return n;
    }

    public void failAll(Throwable t) {
        for (Iterator<Pending<R>> it = pending.values().iterator(); it.hasNext();) {
            Pending<R> p = it.next();
            it.remove();
            p.future().completeExceptionally(t);
        }
    }
}
