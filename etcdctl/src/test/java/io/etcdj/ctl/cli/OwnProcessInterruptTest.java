package io.etcdj.ctl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C in a process of its own, the signal handler's body called as the JVM would call it: a
 * signal while the command line is still being parsed is held, not lost and not fatal to lock.
 */
class OwnProcessInterruptTest {
    private final List<Integer> exits = new CopyOnWriteArrayList<>();

    @Test
    void aSignalBeforeTheCommandIsKnownReachesLockAtItsFirstTake() throws Exception {
        OwnProcessInterrupt own = new OwnProcessInterrupt(false, exits::add);
        Thread handler = new Thread(own::signalled);
        handler.start();
        handler.join(200);
        assertTrue(handler.isAlive(), "the signal waits while the command line is parsed");
        own.commandKnown(true);
        handler.join(TimeUnit.SECONDS.toMillis(5));
        assertFalse(handler.isAlive());
        AtomicInteger stops = new AtomicInteger();
        try (AutoCloseable taking = own.take(stops::incrementAndGet)) {
            assertEquals(1, stops.get(), "the held signal cancels lock's first wait at once");
        }
        assertTrue(exits.isEmpty(), "lock answers the signal; the process does not die by it");
    }

    @Test
    void aSignalBeforeAnyOtherCommandIsKnownEndsTheProcessAsTheJvmWould() throws Exception {
        OwnProcessInterrupt own = new OwnProcessInterrupt(false, exits::add);
        Thread handler = new Thread(own::signalled);
        handler.start();
        own.commandKnown(false);
        handler.join(TimeUnit.SECONDS.toMillis(5));
        assertEquals(List.of(130), exits);
    }

    @Test
    void aTakerRunsOnTheSignalAndAfterItIsClosedTheSignalIsHeldForTheNext() throws Exception {
        OwnProcessInterrupt own = new OwnProcessInterrupt(false, exits::add);
        own.commandKnown(true);
        AtomicInteger first = new AtomicInteger();
        try (AutoCloseable taking = own.take(first::incrementAndGet)) {
            own.signalled();
        }
        assertEquals(1, first.get());
        // between lock's session and its wait: the signal waits for the wait
        own.signalled();
        AtomicInteger second = new AtomicInteger();
        try (AutoCloseable taking = own.take(second::incrementAndGet)) {
            assertEquals(1, second.get());
        }
        assertEquals(1, first.get(), "a closed taker is not run again");
        assertTrue(exits.isEmpty());
    }

    @Test
    void withoutAHoldFromMainOnlyATakerKeepsTheProcessAlive() throws Exception {
        OwnProcessInterrupt own = new OwnProcessInterrupt(true, exits::add);
        AtomicInteger stops = new AtomicInteger();
        try (AutoCloseable taking = own.take(stops::incrementAndGet)) {
            own.signalled();
        }
        assertEquals(1, stops.get());
        assertTrue(exits.isEmpty());
        own.signalled();
        assertEquals(List.of(130), exits, "no command took it: the process ends");
    }

    @Test
    void onlyTheFirstCommandOfTheProcessCounts() throws Exception {
        OwnProcessInterrupt own = new OwnProcessInterrupt(false, exits::add);
        own.commandKnown(false); // the shell
        own.commandKnown(true); // a lock line inside it: it takes the signal only while it waits
        own.signalled();
        assertEquals(List.of(130), exits);
    }
}
