package io.etcdj.server.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.etcdj.server.error.EtcdException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadDeadlinesTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final ReadDeadlines deadlines = new ReadDeadlines(200, 500, now::get);

    private static Throwable failure(CompletableFuture<Void> f) {
        try {
            f.join();
            throw new AssertionError("the read did not fail");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    void aReadWithoutLeaderFailsWithNoLeaderAfterItsWaitOnly() {
        CompletableFuture<Void> read = deadlines.track(new CompletableFuture<>());
        now.addAndGet(199);
        deadlines.sweep(false);
        assertFalse(read.isDone(), "not before two election timeouts");
        now.addAndGet(1);
        deadlines.sweep(false);
        EtcdException e = assertInstanceOf(EtcdException.class, failure(read));
        assertEquals("etcdserver: no leader", e.getMessage());
    }

    @Test
    void aReadWithALeaderWaitsUntilTheRequestTimeout() {
        CompletableFuture<Void> read = deadlines.track(new CompletableFuture<>());
        now.addAndGet(300);
        deadlines.sweep(true);
        assertFalse(read.isDone());
        now.addAndGet(200);
        deadlines.sweep(true);
        assertInstanceOf(TimeoutException.class, failure(read));
    }

    @Test
    void answeredReadsAreForgottenAndYoungerOnesLeftAlone() {
        CompletableFuture<Void> answered = deadlines.track(new CompletableFuture<>());
        now.addAndGet(400);
        CompletableFuture<Void> young = deadlines.track(new CompletableFuture<>());
        answered.complete(null);
        now.addAndGet(150);
        deadlines.sweep(true);
        assertFalse(young.isDone(), "150 ns old: neither limit reached");
        now.addAndGet(400);
        deadlines.sweep(true);
        assertInstanceOf(TimeoutException.class, failure(young));
    }
}
