package io.etcdj.server.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.wait.FakeLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Linearizable reads wait for the confirmed index to be applied, and are released on the caller's executor. */
class ReadBarrierTest {
    private final List<Runnable> released = new ArrayList<>();
    private final ReadBarrier barrier = new ReadBarrier(released::add);

    private void runReleased() {
        List<Runnable> now = new ArrayList<>(released);
        released.clear();
        now.forEach(Runnable::run);
    }

    @Test
    void readsWaitingTogetherShareOneRequestAndWaitForTheApply() {
        CompletableFuture<Void> a = barrier.enqueue();
        CompletableFuture<Void> b = barrier.enqueue();
        long ctx = barrier.nextRequest(0, 1_000);
        assertNotEquals(ReadBarrier.NO_REQUEST, ctx);
        assertEquals(ReadBarrier.NO_REQUEST, barrier.nextRequest(1, 1_000), "one request in flight at a time");
        CompletableFuture<Void> c = barrier.enqueue();
        barrier.confirmed(ctx, 10);
        barrier.applied(9);
        runReleased();
        assertFalse(a.isDone(), "index 10 is not applied yet");
        barrier.applied(10);
        assertFalse(a.isDone(), "released on the executor, not on the applying thread");
        runReleased();
        assertTrue(a.isDone() && b.isDone());
        assertFalse(c.isDone(), "a read that came after the request needs a request of its own");
        long next = barrier.nextRequest(2, 1_000);
        assertNotEquals(ReadBarrier.NO_REQUEST, next);
        assertNotEquals(ctx, next, "a new request, a new context");
        barrier.confirmed(next, 10);
        runReleased();
        assertTrue(c.isDone(), "confirmed at an index already applied: released at once");
    }

    @Test
    void aReadEnqueuedOnALoopIsReleasedOnThatLoopOneTaskPerExecutor() {
        List<Runnable> onLoop = new ArrayList<>();
        Executor loop = onLoop::add;
        AtomicReference<Executor> current =
                new AtomicReference<>();
        ReadBarrier b = new ReadBarrier(released::add, current::get);
        current.set(loop);
        CompletableFuture<Void> a1 = b.enqueue();
        CompletableFuture<Void> a2 = b.enqueue();
        current.set(null);
        CompletableFuture<Void> other = b.enqueue();
        long ctx = b.nextRequest(0, 1_000);
        b.applied(3);
        b.confirmed(ctx, 3);
        assertEquals(1, onLoop.size(), "both reads from the loop in one task on it");
        assertEquals(1, released.size(), "the read from elsewhere on the completer");
        onLoop.get(0).run();
        assertTrue(a1.isDone() && a2.isDone());
        assertFalse(other.isDone());
        runReleased();
        assertTrue(other.isDone());
    }

    @Test
    void aReadConfirmedOnItsOwnLoopRunsAtOnceOutsideTheBarriersMonitor() {
        FakeLoop loop = new FakeLoop();
        List<Runnable> queued = loop.queued;
        ReadBarrier b = new ReadBarrier(released::add, () -> loop);
        List<String> ran = new ArrayList<>();
        b.enqueue().thenRun(() -> ran.add(Thread.holdsLock(b) ? "under the barrier's monitor" : "read"));
        long ctx = b.nextRequest(0, 1_000);
        b.applied(5);
        loop.ownThread = true; // the heartbeat response that confirms it is read on the read's loop
        b.confirmed(ctx, 5);
        assertEquals(List.of("read"), ran, "ran before confirmed returned, and not under the monitor");
        assertTrue(queued.isEmpty() && released.isEmpty());

        loop.ownThread = false; // applied by another thread: queued on the loop as before
        b.enqueue().thenRun(() -> ran.add("second"));
        b.confirmed(b.nextRequest(1, 1_000), 6);
        b.applied(6);
        assertEquals(1, queued.size());
        queued.get(0).run();
        assertEquals(List.of("read", "second"), ran);
    }

    @Test
    void anUnansweredRequestIsAskedAgainAndEitherAnswerReleasesIt() {
        CompletableFuture<Void> a = barrier.enqueue();
        long first = barrier.nextRequest(0, 100);
        long second = barrier.nextRequest(200, 100);
        assertNotEquals(ReadBarrier.NO_REQUEST, second, "asked again after the retry interval");
        assertNotEquals(first, second);
        barrier.applied(5);
        barrier.confirmed(first, 5);
        runReleased();
        assertTrue(a.isDone(), "the late answer to the first request is good too");
    }

    /** The contexts are the caller's (the member's request IDs, negative ones among them). */
    @Test
    void requestContextsComeFromTheMembersIds() {
        long[] ids = {-5_000_000_000L, 42};
        int[] next = {0};
        ReadBarrier b = new ReadBarrier(released::add, () -> null, () -> { }, () -> ids[next[0]++]);
        b.enqueue();
        assertEquals(-5_000_000_000L, b.nextRequest(0, 100));
        assertEquals(42, b.nextRequest(200, 100), "asked again after the retry interval, under the next ID");
    }

    @Test
    void failAllFailsEveryWaitingRead() {
        CompletableFuture<Void> waiting = barrier.enqueue();
        CompletableFuture<Void> inFlight = barrier.enqueue();
        barrier.nextRequest(0, 100);
        CompletableFuture<Void> later = barrier.enqueue();
        barrier.failAll(new IllegalStateException("stopped"));
        assertTrue(waiting.isCompletedExceptionally() && inFlight.isCompletedExceptionally() && later.isCompletedExceptionally());
    }
}
