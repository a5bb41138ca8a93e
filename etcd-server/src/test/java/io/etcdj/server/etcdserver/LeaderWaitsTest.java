package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** A leader transfer's wait: done when its transferee is reported leading, failed at its deadline, never by polling. */
class LeaderWaitsTest {
    private final List<Runnable> handedOff = new ArrayList<>();
    private final LeaderWaits waits = new LeaderWaits(handedOff::add);

    private void runHandedOff() {
        handedOff.forEach(Runnable::run);
        handedOff.clear();
    }

    @Test
    void completesWhenTheTransfereeLeadsOnTheCompleterNotTheReportingThread() throws Exception {
        CompletableFuture<Void> toTwo = waits.await(2, 1_000);
        CompletableFuture<Void> toThree = waits.await(3, 1_000);
        waits.leaderIs(0);
        waits.leaderIs(3);
        assertFalse(toThree.isDone(), "completed on the completer, not on the raft thread that reported");
        runHandedOff();
        assertTrue(toThree.isDone());
        assertFalse(toTwo.isDone());
        waits.leaderIs(2);
        runHandedOff();
        assertTrue(toTwo.isDone());
        toTwo.get();
    }

    @Test
    void failsWithEtcdsTimeoutOnceItsDeadlineHasPassed() {
        CompletableFuture<Void> soon = waits.await(2, 100);
        CompletableFuture<Void> later = waits.await(2, 500);
        waits.expire(100);
        assertFalse(soon.isDone(), "not before the deadline has passed");
        waits.expire(101);
        ExecutionException e = assertThrows(ExecutionException.class, soon::get);
        assertEquals("etcdserver: request timed out, leader transfer took too long", e.getCause().getMessage());
        assertFalse(later.isDone());
        waits.leaderIs(2);
        runHandedOff();
        assertTrue(later.isDone() && !later.isCompletedExceptionally());
    }

    @Test
    void stoppingFailsEveryWait() {
        CompletableFuture<Void> w = waits.await(2, Long.MAX_VALUE);
        waits.failAll(new IllegalStateException("etcdserver: server stopped"));
        assertTrue(w.isCompletedExceptionally());
    }
}
