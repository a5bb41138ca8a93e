package io.etcdj.server.etcdserver;

import io.etcdj.server.clock.Clock;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who runs the Raft loop's turns, and when. Work for the loop is queued here; a turn (under this
 * object's lock, so turns never overlap and each sees what the one before did) runs it in the order
 * it was queued. The loop's own thread takes a turn when woken or when its next tick is due. A peer
 * message, a client's proposal or a read's ReadIndex request that comes while that thread waits
 * and no turn runs is handled by the thread that brought it, in a turn of its own: etcd's
 * goroutines hand work from the network to Raft without the kernel, and here that saves the
 * hand-off's futex wake-up and context switch at every step of a lightly loaded member's write or
 * read. Under load the loop's thread is in a turn already and the work waits for it, as before.
 */
final class RaftTurns {
    private static final Object BELL = new Object();

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Rung (at most a few tokens) to wake the loop's thread while it waits; it clears it when it wakes. */
    private final BlockingQueue<Object> doorbell;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** True while the loop's thread waits for work (and runs no turn). */
    private volatile boolean idle;
    /** True while a turn runs on a thread other than the loop's. */
    private volatile boolean runningHere;

    RaftTurns(Clock clock) {
        this.clock = clock;
        this.doorbell = clock.newQueue();
    }

    /** Queues {@code task} for the next turn, waking the loop's thread if it waits. */
    void submit(Runnable task) {
        tasks.add(task);
        wakeIfWaiting();
    }

    /**
     * Queues {@code task} and, when the loop's thread waits and no turn runs, runs {@code turn} on
     * the caller's thread now; otherwise the task waits for the turn that runs or the loop's
     * thread. Only for callers that hold none of the member's locks (a turn may apply entries).
     */
    void submitAndRun(Runnable task, Runnable turn) {
        tasks.add(task);
        runHereOrWake(turn);
    }

    /** Queues {@code task} without waking anyone: the caller calls {@link #runHereOrWake} once it has queued a batch. */
    void add(Runnable task) {
        tasks.add(task);
    }

    /** What {@link #submitAndRun} does once its task is queued. */
    void runHereOrWake(Runnable turn) {
        if (!idle || lock.isHeldByCurrentThread()) {
            return; // the loop's thread is in or before a turn, or this thread is in one: the turn finds the tasks
        }
        if (!lock.tryLock()) {
            wakeIfWaiting();
            return;
        }
        runningHere = true;
        try {
            turn.run();
        } finally {
            runningHere = false;
            lock.unlock();
        }
        // what was queued during the turn by callers who left it to this one, and came too late for it
        if (!tasks.isEmpty()) {
            wakeIfWaiting();
        }
    }

    /**
     * Rings for the loop's thread if it waits, unless a turn runs on another thread: that one
     * checks the queue once it ends (after clearing {@link #runningHere}) and rings then.
     */
    private void wakeIfWaiting() {
        if (idle && !runningHere) {
            doorbell.offer(BELL);
        }
    }

    /** Runs every queued task, in order. In a turn only. */
    void drain() {
        for (Runnable t = tasks.poll(); t != null; t = tasks.poll()) {
            t.run();
        }
    }

    /** The loop's thread: waits for queued work or at most {@code nanos} of the clock's time. */
    void await(long nanos) throws InterruptedException {
        idle = true;
        try {
            // checked after idle is set: a task queued before it was set is seen here, one queued
            // after rings the bell (or is run by its caller)
            if (tasks.isEmpty() && nanos > 0) {
                clock.poll(doorbell, nanos);
            }
        } finally {
            idle = false;
        }
        doorbell.clear();
    }

    /**
     * Waits at most {@code millis} for a turn that another thread runs to end (the loop is
     * stopping: none starts after); false when it did not end in time (a disk that hangs an fsync).
     */
    boolean awaitNoTurn(long millis) throws InterruptedException {
        if (!lock.tryLock(millis, TimeUnit.MILLISECONDS)) {
            return false;
        }
        lock.unlock();
        return true;
    }

    /** Starts a turn on the loop's thread (waiting for one run by another thread to end). */
    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }
}
