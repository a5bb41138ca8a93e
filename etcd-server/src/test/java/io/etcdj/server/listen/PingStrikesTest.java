package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PingStrikesTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final PingStrikes strikes = new PingStrikes(5 * SECOND);

    @Test
    void pingsAtTheMinimumIntervalAreAlwaysWelcome() {
        for (int i = 0; i < 100; i++) {
            assertTrue(strikes.pingAcceptable(1000 + i * 5 * SECOND), "ping " + i);
        }
    }

    @Test
    void theThirdPingTooSoonEndsTheConnection() {
        assertTrue(strikes.pingAcceptable(0));
        assertTrue(strikes.pingAcceptable(SECOND), "first strike");
        assertTrue(strikes.pingAcceptable(2 * SECOND), "second strike");
        assertFalse(strikes.pingAcceptable(3 * SECOND), "third strike");
    }

    @Test
    void strikesAreCountedFromTheLastWelcomePing() {
        assertTrue(strikes.pingAcceptable(0));
        assertTrue(strikes.pingAcceptable(4 * SECOND), "strike: 4 s after the welcome one");
        assertTrue(strikes.pingAcceptable(5 * SECOND), "5 s after the welcome one");
        assertTrue(strikes.pingAcceptable(6 * SECOND), "strike two");
        assertFalse(strikes.pingAcceptable(7 * SECOND), "strike three");
    }

    @Test
    void answeringTheClientForgivesItsStrikes() {
        assertTrue(strikes.pingAcceptable(0));
        assertTrue(strikes.pingAcceptable(SECOND));
        assertTrue(strikes.pingAcceptable(2 * SECOND));
        strikes.forgive();
        assertTrue(strikes.pingAcceptable(3 * SECOND), "welcome again after data was sent");
        assertTrue(strikes.pingAcceptable(3 * SECOND + 1), "strike one of a new count");
        assertTrue(strikes.pingAcceptable(3 * SECOND + 2), "strike two");
        assertFalse(strikes.pingAcceptable(3 * SECOND + 3));
    }
}
