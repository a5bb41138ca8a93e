package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {

    @Test
    void returnsTheFirstValueAfterAttemptsThatFailedOrSawNothing() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String got = Eventually.get("the third call", Duration.ofSeconds(10), Duration.ofMillis(1), () -> {
            int n = calls.incrementAndGet();
            if (n == 1) {
                throw new IllegalStateException("not yet");
            }
            if (n == 2) {
                throw new AssertionError("not yet either");
            }
            return n == 3 ? "three" : null;
        });
        assertEquals("three", got);
        assertEquals(3, calls.get());
    }

    @Test
    void failsAfterTheDeadlineSayingWhatItWaitedForAndWhatItSawLast() {
        AssertionError e = assertThrows(AssertionError.class, () -> Eventually.until("the moon", Duration.ofMillis(50),
                Duration.ofMillis(5), () -> {
                    throw new IllegalStateException("still night");
                }));
        assertTrue(e.getMessage().startsWith("the moon: not reached within PT0.05S; the last attempt failed: "),
                e.getMessage());
        assertTrue(e.getMessage().contains("still night"), e.getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void giveUpEndsTheWaitAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        AssertionError e = assertThrows(AssertionError.class, () -> Eventually.until("a start", Duration.ofSeconds(30),
                () -> {
                    calls.incrementAndGet();
                    throw new Eventually.GiveUp("the process exited with 1");
                }));
        assertEquals("a start: the process exited with 1", e.getMessage());
        assertEquals(1, calls.get());
    }

    @Test
    void pollReturnsTheLastValueWhetherOrNotItWasReached() throws Exception {
        AtomicInteger n = new AtomicInteger();
        assertEquals(3, Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(1), n::incrementAndGet, v -> v == 3));
        int last = Eventually.poll(Duration.ofMillis(30), Duration.ofMillis(5), n::incrementAndGet, v -> v < 0);
        assertTrue(last > 3, "polled again until the deadline: " + last);
        assertFalse(Eventually.reached(Duration.ofMillis(20), () -> false));
        assertTrue(Eventually.reached(Duration.ofMillis(20), () -> true));
    }
}
