package io.etcdj.server.clock;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Where a member's time comes from. Every decision that depends on time passing reads this clock
 * or waits through it: when the Raft loop ticks, when a lease expires, when a proposal or a
 * linearizable read gives up, when the timer tasks run. Durations that are only measured and
 * reported (metrics, slow-request logs) and timestamps (log lines, IDs) use the system clock.
 *
 * <p>A member's loop threads wait for their next task with {@link #poll}, on a queue this clock
 * made ({@link #newQueue}), so a clock whose time is moved by a test wakes them when their timeout
 * has passed on it. {@link #SYSTEM} is the JDK's monotonic clock and its queues and executors as
 * they are, with no cost added.
 */
public interface Clock {
    /** The JDK's clock: {@link System#nanoTime()}, a plain queue, the executor's own scheduling. */
    Clock SYSTEM = new SystemClock();

    /** Nanoseconds on this clock, like {@link System#nanoTime()}: only differences mean something. */
    long nanoTime();

    /** A queue for a loop thread that waits for its next task with {@link #poll}. */
    <T> BlockingQueue<T> newQueue();

    /**
     * Takes the head of {@code queue} (one made by {@link #newQueue}), waiting at most {@code nanos}
     * of this clock's time for one; {@code nanos <= 0} does not wait, {@link Long#MAX_VALUE} waits
     * without a limit. Returns null if the time passed first.
     */
    <T> T poll(BlockingQueue<T> queue, long nanos) throws InterruptedException;

    /**
     * Runs {@code task} on {@code executor} after {@code initialDelay}, then again {@code delay}
     * after each run ends, counting this clock's time, until the executor is shut down or the
     * returned future is cancelled.
     */
    Future<?> scheduleWithFixedDelay(ScheduledExecutorService executor, Runnable task, long initialDelay, long delay,
                                TimeUnit unit);
}
