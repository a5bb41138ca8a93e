package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.server.cluster.ManualClock;
import io.etcdj.server.log.Log;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The start-up tick advance: all but two election ticks once more than one peer answers, none when
 * switched off or alone, and none once the wait for peers is over. Time is the test's own clock.
 */
class ElectionTickAdvanceTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ManualClock clock = new ManualClock();
    private final List<Integer> advanced = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void advancesOnceTwoPeersAnswer() {
        AtomicInteger peers = new AtomicInteger(1);
        ElectionTickAdvance.start(Log.get("etcdserver/server"), true, 3, 1, 10, 100, clock, timer, peers::get, advanced::add);
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(), advanced, "one peer is not enough, as in etcd");
        peers.set(2);
        clock.advance(TimeUnit.MILLISECONDS.toNanos(50));
        assertEquals(List.of(8), advanced);
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(8), advanced, "once");
    }

    @Test
    void switchedOffOrAloneNothingIsAdvanced() {
        ElectionTickAdvance.start(Log.get("etcdserver/server"), false, 3, 1, 10, 100, clock, timer, () -> 2, advanced::add);
        ElectionTickAdvance.start(Log.get("etcdserver/server"), true, 1, 1, 10, 100, clock, timer, () -> 2, advanced::add);
        clock.advance(TimeUnit.SECONDS.toNanos(10));
        assertEquals(List.of(), advanced);
    }

    @Test
    void peersAnsweringAfterTheWaitChangeNothing() {
        AtomicInteger peers = new AtomicInteger(0);
        ElectionTickAdvance.start(Log.get("etcdserver/server"), true, 3, 1, 10, 100, clock, timer, peers::get, advanced::add);
        clock.advance(TimeUnit.SECONDS.toNanos(6));
        peers.set(2);
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(), advanced, "the member starts with the full timeout after 5 s without peers");
    }
}
