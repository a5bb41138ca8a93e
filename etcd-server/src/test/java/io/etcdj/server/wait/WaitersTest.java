package io.etcdj.server.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.apply.ApplyResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WaitersTest {
    @Test
    void completesTheCallerOfARequestOnTheCompleterOnly() {
        List<Runnable> completions = new ArrayList<>();
        Waiters<ApplyResult> w = new Waiters<>(completions::add);
        CompletableFuture<ApplyResult> mine = w.register(1);
        w.complete(2, ApplyResult.ok(null, 5)); // another member's request: nobody waits here
        assertEquals(0, completions.size());
        w.complete(1, ApplyResult.ok(null, 7));
        assertFalse(mine.isDone(), "not on the applying thread");
        completions.forEach(Runnable::run);
        assertEquals(7, mine.join().revision());
        w.complete(1, ApplyResult.ok(null, 8));
        assertEquals(1, completions.size(), "a request is answered once");
    }

    @Test
    void aBatchIsAnsweredByOneTaskInOrder() {
        List<Runnable> completions = new ArrayList<>();
        Waiters<ApplyResult> w = new Waiters<>(completions::add);
        CompletableFuture<ApplyResult> a = w.register(1, 1_000);
        CompletableFuture<ApplyResult> b = w.register(2, 1_000);
        w.completeAll(List.of(new Waiters.Done<>(1, ApplyResult.ok(null, 10)), new Waiters.Done<>(9, ApplyResult.ok(null, 11)),
                new Waiters.Done<>(2, ApplyResult.ok(null, 12))));
        assertEquals(1, completions.size(), "one hand-off for the batch");
        completions.get(0).run();
        assertEquals(10, a.join().revision());
        assertEquals(12, b.join().revision());
    }

    @Test
    void aCallIsAnsweredOnTheLoopItWasMadeOn() {
        List<Runnable> completer = new ArrayList<>();
        List<Runnable> loopA = new ArrayList<>();
        List<Runnable> loopB = new ArrayList<>();
        Executor[] registering = {null};
        Waiters<ApplyResult> w = new Waiters<>(completer::add, System::nanoTime, () -> registering[0]);
        registering[0] = loopA::add;
        CompletableFuture<ApplyResult> a1 = w.register(1);
        CompletableFuture<ApplyResult> a2 = w.register(2);
        registering[0] = loopB::add;
        CompletableFuture<ApplyResult> b = w.register(3);
        registering[0] = null;
        CompletableFuture<ApplyResult> elsewhere = w.register(4);

        w.completeAll(List.of(new Waiters.Done<>(1, ApplyResult.ok(null, 1)), new Waiters.Done<>(3, ApplyResult.ok(null, 3)),
                new Waiters.Done<>(4, ApplyResult.ok(null, 4)), new Waiters.Done<>(2, ApplyResult.ok(null, 2))));
        assertEquals(1, loopA.size(), "the two calls of loop A in one task");
        assertEquals(1, loopB.size());
        assertEquals(1, completer.size(), "a call made off any loop goes to the completer");
        assertFalse(a1.isDone() || a2.isDone() || b.isDone() || elsewhere.isDone(), "nothing answered on the applying thread");
        loopA.get(0).run();
        assertEquals(1, a1.join().revision());
        assertEquals(2, a2.join().revision());
        assertFalse(b.isDone());
        loopB.get(0).run();
        completer.get(0).run();
        assertEquals(3, b.join().revision());
        assertEquals(4, elsewhere.join().revision());
    }

    @Test
    void aCallNotAnsweredInTimeFailsWithATimeout() {
        AtomicLong now = new AtomicLong();
        Waiters<ApplyResult> w = new Waiters<>(Runnable::run, now::get);
        CompletableFuture<ApplyResult> slow = w.register(1, 500);
        CompletableFuture<ApplyResult> unbounded = w.register(2);
        now.set(499);
        assertEquals(0, w.expire());
        now.set(500);
        assertEquals(1, w.expire());
        assertInstanceOf(TimeoutException.class, assertThrows(CompletionException.class, slow::join).getCause());
        assertFalse(unbounded.isDone());
        w.complete(1, ApplyResult.ok(null, 3)); // the late answer finds nobody waiting
        now.set(Long.MAX_VALUE - 1);
        assertEquals(0, w.expire());
        assertFalse(unbounded.isDone());
    }

    @Test
    void failAllFailsWhatIsPending() {
        Waiters<ApplyResult> w = new Waiters<>(Runnable::run);
        CompletableFuture<ApplyResult> f = w.register(3);
        w.failAll(new IllegalStateException("stopped"));
        assertTrue(f.isCompletedExceptionally());
    }

    @Test
    void aBatchAppliedOnTheCallsOwnLoopIsAnsweredBeforeCompleteAllReturns() {
        FakeLoop here = new FakeLoop();
        FakeLoop other = new FakeLoop();
        Executor[] registering = {here};
        Waiters<ApplyResult> w = new Waiters<>(Runnable::run, System::nanoTime, () -> registering[0]);
        CompletableFuture<ApplyResult> mine = w.register(1);
        CompletableFuture<ApplyResult> alsoMine = w.register(2);
        registering[0] = other;
        CompletableFuture<ApplyResult> theirs = w.register(3);

        here.ownThread = true; // the apply runs on loop "here" (a Raft turn a peer's message brought there)
        List<Long> answered = new ArrayList<>();
        mine.thenAccept(r -> answered.add(r.revision()));
        alsoMine.thenAccept(r -> answered.add(r.revision()));
        w.completeAll(List.of(new Waiters.Done<>(1, ApplyResult.ok(null, 1)), new Waiters.Done<>(3, ApplyResult.ok(null, 3)),
                new Waiters.Done<>(2, ApplyResult.ok(null, 2))));
        assertEquals(List.of(1L, 2L), answered, "this loop's calls answered at once, in order");
        assertTrue(here.queued.isEmpty(), "no task queued on the loop that answered at once");
        assertFalse(theirs.isDone(), "another loop's call waits for that loop");
        assertEquals(1, other.queued.size());
        other.queued.get(0).run();
        assertEquals(3, theirs.join().revision());
    }
}
