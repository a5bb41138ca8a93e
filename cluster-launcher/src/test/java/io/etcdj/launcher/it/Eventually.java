package io.etcdj.launcher.it;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition that a distributed system reaches in its own time (elections, catch-up). */
final class Eventually {
    private Eventually() {}

    static <T> T get(Duration within, Supplier<T> attempt) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                T value = attempt.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not reached within " + within, last);
    }
}
