package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.server.clock.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The start-up tick advance: all but two election ticks once more than one peer answers, none when switched off. */
class ElectionTickAdvanceTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void advancesOnceTwoPeersAnswer() throws Exception {
        LinkedBlockingQueue<Integer> advanced = new LinkedBlockingQueue<>();
        AtomicInteger peers = new AtomicInteger(1);
        ElectionTickAdvance.start(true, 3, 1, 10, 100, Clock.SYSTEM, timer, peers::get, advanced::add);
        Thread.sleep(200);
        assertEquals(null, advanced.peek(), "one peer is not enough, as in etcd");
        peers.set(2);
        assertEquals(8, advanced.poll(5, TimeUnit.SECONDS));
        Thread.sleep(200);
        assertEquals(null, advanced.peek(), "once");
    }

    @Test
    void switchedOffOrAloneNothingIsAdvanced() throws Exception {
        LinkedBlockingQueue<Integer> advanced = new LinkedBlockingQueue<>();
        ElectionTickAdvance.start(false, 3, 1, 10, 100, Clock.SYSTEM, timer, () -> 2, advanced::add);
        ElectionTickAdvance.start(true, 1, 1, 10, 100, Clock.SYSTEM, timer, () -> 2, advanced::add);
        Thread.sleep(300);
        assertEquals(null, advanced.peek());
    }
}
