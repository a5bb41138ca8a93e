package io.etcdj.server.cluster;

import io.etcdj.server.clock.Clock;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A {@link Clock} whose time moves only when the test calls {@link #advance}. The members keep
 * their real threads; what this clock decides is when their time-based work happens: a Raft loop
 * waiting for its next tick wakes when the test's time reaches it, and the timer tasks (lease
 * expiry, deadline sweeps, backend sync) are handed to their executors when they fall due.
 *
 * <p>{@link #advance} walks from one due time to the next and, at each, waits until the members
 * have settled: every loop waits on an empty queue of this clock, and no timer task or
 * {@link #tracked tracked} delivery (the simulated network's) is running. So a follower hears a
 * heartbeat before its next tick, however slow the machine, and an election happens at the tick
 * the randomized timeouts say. The threads of the member that are not loops (the response pool,
 * calls forwarded to the leader) are not waited for: a test waits for their futures.
 */
public final class ManualClock implements Clock {
    /** A settle that takes longer than this is a test bug (a loop blocked on something that needs time). */
    private static final long SETTLE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** An arbitrary origin, as System.nanoTime's. */
    private volatile long now = TimeUnit.HOURS.toNanos(1);
    /** Bumped whenever work moves: a queue gets a task, a tracked task starts or ends. */
    private final AtomicLong epoch = new AtomicLong();
    /** Timer tasks and tracked deliveries handed to an executor and not finished. */
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<ManualQueue<?>> queues = new CopyOnWriteArrayList<>();
    private final List<Timer> timers = new CopyOnWriteArrayList<>();

    /** A fixed-delay task: run on {@code executor} whenever {@code due} is reached, then {@code delay} later. */
    private static final class Timer {
        final ScheduledExecutorService executor;
        final Runnable task;
        final long delay;
        volatile long due;
        volatile boolean cancelled;

        Timer(ScheduledExecutorService executor, Runnable task, long due, long delay) {
            this.executor = executor;
            this.task = task;
            this.due = due;
            this.delay = delay;
        }
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public <T> BlockingQueue<T> newQueue() {
        ManualQueue<T> q = new ManualQueue<>(this);
        queues.add(q);
        return q;
    }

    @Override
    public <T> T poll(BlockingQueue<T> queue, long nanos) throws InterruptedException {
        if (!(queue instanceof ManualQueue<T> q)) {
            throw new IllegalArgumentException("not a queue of this clock: " + queue.getClass().getName());
        }
        if (nanos <= 0) {
            return q.poll();
        }
        long t = now;
        return q.await(nanos >= Long.MAX_VALUE - t ? Long.MAX_VALUE : t + nanos);
    }

    @Override
    public Future<?> scheduleWithFixedDelay(ScheduledExecutorService executor, Runnable task, long initialDelay, long delay,
                                            TimeUnit unit) {
        Timer timer = new Timer(executor, task, now + unit.toNanos(initialDelay), Math.max(1, unit.toNanos(delay)));
        timers.add(timer);
        CompletableFuture<Void> handle = new CompletableFuture<>();
        handle.whenComplete((r, e) -> timers.remove(timer)); // cancel() ends it
        return handle;
    }

    /** An executor whose tasks {@link #settle} waits for (the simulated network's deliveries). */
    Executor tracked(Executor executor) {
        return task -> {
            started();
            try {
                executor.execute(() -> {
                    try {
                        task.run();
                    } finally {
                        finished();
                    }
                });
            } catch (RejectedExecutionException e) {
                finished();
                throw e;
            }
        };
    }

    /**
     * Moves time forward by {@code nanos}, stopping at every due tick and timer on the way and
     * letting the members settle after each. One caller at a time (the test's thread).
     */
    public synchronized void advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("time does not go back: " + nanos);
        }
        long target = now + nanos;
        settle();
        while (true) {
            long next = nextDue();
            if (next > target) {
                break;
            }
            now = Math.max(now, next);
            fire();
            settle();
        }
        now = target;
        fire();
        settle();
    }

    /** Waits (in real time) until every loop waits on an empty queue and no tracked task runs. */
    void settle() {
        long limit = System.nanoTime() + SETTLE_LIMIT_NANOS;
        for (int spins = 0; ; spins++) {
            long before = epoch.get();
            if (quiet() && epoch.get() == before) {
                return;
            }
            if (System.nanoTime() - limit > 0) {
                throw new IllegalStateException("the members did not settle within "
                        + TimeUnit.NANOSECONDS.toSeconds(SETTLE_LIMIT_NANOS) + " s: " + busy());
            }
            if (spins < 20) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** Drops the queues whose loop never started (a member that failed while being built). */
    void forgetUnstarted() {
        queues.removeIf(ManualQueue::unstarted);
    }

    void bump() {
        epoch.incrementAndGet();
    }

    private void started() {
        inFlight.incrementAndGet();
        bump();
    }

    private void finished() {
        inFlight.decrementAndGet();
        bump();
    }

    private boolean quiet() {
        queues.removeIf(ManualQueue::ended);
        if (inFlight.get() != 0) {
            return false;
        }
        for (ManualQueue<?> q : queues) {
            if (!q.idle()) {
                return false;
            }
        }
        return true;
    }

    private String busy() {
        return inFlight.get() + " tasks running; loops not idle: " + queues.stream().filter(q -> !q.idle())
                .map(ManualQueue::describe).collect(Collectors.joining(", "));
    }

    private long nextDue() {
        long next = Long.MAX_VALUE;
        for (Timer t : timers) {
            if (!t.cancelled) {
                next = Math.min(next, t.due);
            }
        }
        for (ManualQueue<?> q : queues) {
            next = Math.min(next, q.deadline());
        }
        return next;
    }

    /** Wakes the loops whose wait is over and hands the due timer tasks to their executors. */
    private void fire() {
        long t = now;
        for (ManualQueue<?> q : queues) {
            q.wakeIfDue(t);
        }
        for (Timer timer : timers) {
            if (timer.cancelled || timer.executor.isShutdown()) {
                timers.remove(timer);
            } else if (timer.due <= t) {
                timer.due = t + timer.delay;
                dispatch(timer);
            }
        }
    }

    private void dispatch(Timer timer) {
        started();
        try {
            timer.executor.execute(() -> {
                try {
                    timer.task.run();
                } catch (RuntimeException | Error e) {
                    timer.cancelled = true; // as a scheduled executor stops a task that threw
                    throw e;
                } finally {
                    finished();
                }
            });
        } catch (RejectedExecutionException e) {
            finished();
            timers.remove(timer);
        }
    }

    /**
     * A loop's queue: adding a task wakes its loop and tells the clock work moved; the loop waits
     * in {@link #await} on this queue's monitor, so the clock sees, under the same monitor, whether
     * it is waiting with nothing to do.
     */
    static final class ManualQueue<T> extends LinkedBlockingQueue<T> {
        private static final long serialVersionUID = 1L;
        private final transient ManualClock clock;
        /** The loop's thread, from its first wait. */
        private transient volatile Thread owner;
        private boolean waiting;
        private long deadline = Long.MAX_VALUE;

        ManualQueue(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public boolean offer(T e) {
            synchronized (this) {
                boolean added = super.offer(e);
                clock.bump();
                notifyAll();
                return added;
            }
        }

        @Override
        public boolean offer(T e, long timeout, TimeUnit unit) {
            return offer(e);
        }

        @Override
        public void put(T e) {
            offer(e);
        }

        T await(long until) throws InterruptedException {
            owner = Thread.currentThread();
            synchronized (this) {
                deadline = until;
                try {
                    while (true) {
                        T e = super.poll();
                        if (e != null) {
                            return e;
                        }
                        if (clock.nanoTime() >= until) {
                            return null;
                        }
                        waiting = true;
                        wait();
                    }
                } finally {
                    waiting = false;
                    deadline = Long.MAX_VALUE;
                }
            }
        }

        /**
         * Wakes the loop if its wait is over. From here until it waits again it is busy: a loop
         * that has been woken but has not run yet must not look idle, or time would move on
         * before it ticks.
         */
        synchronized void wakeIfDue(long t) {
            if (waiting && deadline <= t) {
                waiting = false;
                notifyAll();
            }
        }

        synchronized long deadline() {
            return waiting ? deadline : Long.MAX_VALUE;
        }

        /** Waiting with nothing queued, or its loop has ended. A loop that has not waited yet is busy: it is starting. */
        synchronized boolean idle() {
            return ended() || waiting && isEmpty();
        }

        boolean ended() {
            Thread t = owner;
            return t != null && !t.isAlive();
        }

        boolean unstarted() {
            return owner == null;
        }

        String describe() {
            Thread t = owner;
            return (t == null ? "(not started)" : t.getName()) + " with " + size() + " queued";
        }
    }
}
