package io.etcdj.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The manual clock wakes loops and runs timer tasks when its time reaches them, and only then. */
class ManualClockTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final ManualClock clock = new ManualClock();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private Thread loop;

    @AfterEach
    void stop() throws InterruptedException {
        timers.shutdownNow();
        if (loop != null) {
            loop.interrupt();
            loop.join(5000);
        }
    }

    /** A loop like the Raft loop's: runs its tasks, and records the clock's time whenever its 100 ms wait ends. */
    private List<Long> startTicking(BlockingQueue<Runnable> inbox) {
        List<Long> ticks = new CopyOnWriteArrayList<>();
        loop = new Thread(() -> {
            long next = clock.nanoTime() + 100 * MS;
            try {
                while (true) {
                    Runnable task = clock.poll(inbox, next - clock.nanoTime());
                    if (task != null) {
                        task.run();
                    }
                    if (clock.nanoTime() >= next) {
                        ticks.add(clock.nanoTime());
                        next = clock.nanoTime() + 100 * MS;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-loop");
        loop.start();
        return ticks;
    }

    @Test
    void aWaitingLoopWakesWhenTheClockReachesItsTimeoutAndNotBefore() {
        long start = clock.nanoTime();
        List<Long> ticks = startTicking(clock.newQueue());
        clock.advance(99 * MS);
        assertTrue(ticks.isEmpty(), "no tick before 100 ms: " + ticks);
        clock.advance(MS);
        assertEquals(List.of(start + 100 * MS), ticks);
        clock.advance(1000 * MS);
        assertEquals(11, ticks.size(), "one tick per 100 ms, each at its time: " + ticks);
        assertEquals(start + 1100 * MS, ticks.get(10));
    }

    @Test
    void aTaskQueuedForALoopRunsBeforeTheClockMovesOn() {
        BlockingQueue<Runnable> inbox = clock.newQueue();
        startTicking(inbox);
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            inbox.add(ran::incrementAndGet);
        }
        clock.settle();
        assertEquals(100, ran.get());
    }

    @Test
    void timerTasksRunAtTheirDueTimesWithAFixedDelay() {
        long start = clock.nanoTime();
        List<Long> runs = new CopyOnWriteArrayList<>();
        clock.scheduleWithFixedDelay(timers, () -> runs.add(clock.nanoTime()), 500, 200, TimeUnit.MILLISECONDS);
        clock.advance(499 * MS);
        assertTrue(runs.isEmpty());
        clock.advance(MS);
        assertEquals(List.of(start + 500 * MS), runs, "run and finished before advance returns");
        clock.advance(1000 * MS);
        assertEquals(List.of(start + 500 * MS, start + 700 * MS, start + 900 * MS, start + 1100 * MS, start + 1300 * MS,
                start + 1500 * MS), runs);
    }

    @Test
    void aTimerStopsWithItsExecutor() {
        AtomicInteger runs = new AtomicInteger();
        clock.scheduleWithFixedDelay(timers, runs::incrementAndGet, 100, 100, TimeUnit.MILLISECONDS);
        clock.advance(300 * MS);
        assertEquals(3, runs.get());
        timers.shutdown();
        clock.advance(300 * MS);
        assertEquals(3, runs.get());
    }

    @Test
    void settleWaitsForTrackedDeliveries() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        var sender = Executors.newSingleThreadExecutor();
        try {
            clock.tracked(sender).execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.incrementAndGet();
            });
            Thread releaser = new Thread(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                release.countDown();
            });
            releaser.start();
            clock.settle();
            assertEquals(1, done.get(), "settle returned only once the delivery had run");
            releaser.join();
        } finally {
            sender.shutdownNow();
        }
    }

    @Test
    void aPollThatNeedNotWaitDoesNotWait() throws InterruptedException {
        BlockingQueue<String> q = clock.newQueue();
        assertNull(clock.poll(q, 0));
        q.add("x");
        assertEquals("x", clock.poll(q, 0));
    }
}
