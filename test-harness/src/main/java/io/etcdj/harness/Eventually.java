package io.etcdj.harness;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Polls a condition that a distributed system reaches in its own time (elections, catch-up, a port
 * opening), with a deadline. When time runs out it fails with what it waited for and what the last
 * attempt saw (its value, or its exception as the cause). Every wait in a process test goes through
 * here instead of a sleep or a loop of its own.
 */
public final class Eventually {
    private static final Duration EVERY = Duration.ofMillis(100);

    private Eventually() {
    }

    /** One attempt: a value when reached, {@code null} (or an exception) when not yet. */
    @FunctionalInterface
    public interface Attempt<T> {
        T get() throws Exception;
    }

    /** One check: true when reached. */
    @FunctionalInterface
    public interface Check {
        boolean test() throws Exception;
    }

    /** Thrown by an attempt that knows waiting longer cannot help (the process exited): ends the wait at once. */
    public static final class GiveUp extends RuntimeException {
        public GiveUp(String message) {
            super(message);
        }
    }

    /** The first non-null value {@code attempt} returns within {@code within}, polling every 100 ms. */
    public static <T> T get(String what, Duration within, Attempt<T> attempt) throws InterruptedException {
        return get(what, within, EVERY, attempt);
    }

    /**
     * As {@link #get(String, Duration, Attempt)}, polling every {@code every}. Exceptions and assertion
     * failures of an attempt count as "not yet"; {@link GiveUp} ends the wait at once.
     */
    public static <T> T get(String what, Duration within, Duration every, Attempt<T> attempt)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        Throwable lastFailure = null;
        while (true) {
            try {
                T value = attempt.get();
                if (value != null) {
                    return value;
                }
                lastFailure = null;
            } catch (GiveUp e) {
                throw new AssertionError(what + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | AssertionError e) {
                lastFailure = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                String last = lastFailure != null ? "the last attempt failed: " + lastFailure : "the last attempt saw no result";
                throw new AssertionError(what + ": not reached within " + within + "; " + last, lastFailure);
            }
            Thread.sleep(every.toMillis());
        }
    }

    /** Returns once {@code check} holds, polling every 100 ms, or fails after {@code within}. */
    public static void until(String what, Duration within, Check check) throws InterruptedException {
        until(what, within, EVERY, check);
    }

    /** As {@link #until(String, Duration, Check)}, polling every {@code every}. */
    public static void until(String what, Duration within, Duration every, Check check) throws InterruptedException {
        get(what, within, every, () -> check.test() ? Boolean.TRUE : null);
    }

    /**
     * Polls {@code check} every 100 ms until it holds or {@code within} has passed, and says which; for
     * a test that asserts the outcome itself afterwards. An exception of {@code check} ends the wait.
     */
    public static boolean reached(Duration within, Check check) throws Exception {
        return poll(within, EVERY, () -> check.test(), done -> done);
    }

    /**
     * Calls {@code attempt} every {@code every} until {@code done} accepts its value or {@code within}
     * has passed, and returns the last value, for the test to assert on. An exception ends the wait.
     */
    public static <T> T poll(Duration within, Duration every, Attempt<T> attempt, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        T value = attempt.get();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            Thread.sleep(every.toMillis());
            value = attempt.get();
        }
        return value;
    }
}
