package io.etcdj.ctl.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One warm-server invocation's stop: the caller's Ctrl-C waits for the command to be known. */
class InterruptionStopTest {
    private static final int SIGINT = 2;
    private static final int SIGTERM = 15;

    @Test
    void aCallersCtrlCWhileTheCommandLineIsParsedIsLocksToAnswer() throws Exception {
        Interruption.Stop stop = new Interruption.Stop();
        CompletableFuture<Boolean> taken = CompletableFuture.supplyAsync(() -> stop.taken(SIGINT));
        Thread.sleep(200);
        assertFalse(taken.isDone(), "the signal waits while the command line is parsed");
        stop.commandKnown(true);
        assertTrue(taken.get(5, TimeUnit.SECONDS));
    }

    @Test
    void anyOtherCommandOrSignalEndsTheCall() {
        Interruption.Stop put = new Interruption.Stop();
        put.commandKnown(false);
        assertFalse(put.taken(SIGINT));
        Interruption.Stop lock = new Interruption.Stop();
        lock.commandKnown(true);
        assertFalse(lock.taken(SIGTERM), "lock takes only SIGINT, as etcdctl's signal.Notify");
        assertTrue(lock.taken(SIGINT));
    }

    @Test
    void aSignalHeldForLockReachesItsWaitWhenItComes() throws Exception {
        Interruption.Stop stop = new Interruption.Stop();
        stop.commandKnown(true);
        stop.fire();
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        Interruption.bind(stop);
        try (AutoCloseable waiting = Interruption.onStop(() -> stopped.complete(null))) {
            stopped.get(5, TimeUnit.SECONDS);
        } finally {
            Interruption.bind(null);
        }
    }
}
