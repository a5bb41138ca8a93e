package io.etcdj.server.clock;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** {@link Clock#SYSTEM}: each method is the JDK call the member made before it had a clock. */
final class SystemClock implements Clock {
    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public <T> BlockingQueue<T> newQueue() {
        return new LinkedBlockingQueue<>();
    }

    @Override
    public <T> T poll(BlockingQueue<T> queue, long nanos) throws InterruptedException {
        if (nanos == Long.MAX_VALUE) {
            return queue.take();
        }
        return nanos > 0 ? queue.poll(nanos, TimeUnit.NANOSECONDS) : queue.poll();
    }

    @Override
    public Future<?> scheduleWithFixedDelay(ScheduledExecutorService executor, Runnable task, long initialDelay, long delay,
                                            TimeUnit unit) {
        return executor.scheduleWithFixedDelay(task, initialDelay, delay, unit);
    }

    @Override
    public String toString() {
        return "Clock.SYSTEM";
    }
}
