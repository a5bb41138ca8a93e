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
 * The start-up tick advance: all but two election ticks once more than one peer answers, followed
 * by the hook that opens a new cluster's first election; none of it when switched off or alone,
 * or once the wait for peers is over. Time is the test's own clock.
 */
class ElectionTickAdvanceTest {
    private static final Log LOG = Log.get("etcdserver/server");
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ManualClock clock = new ManualClock();
    private final List<Integer> advanced = new CopyOnWriteArrayList<>();
    /** The first election's hook, recorded among the advances as -1. */
    private final Runnable firstElection = () -> advanced.add(-1);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void advancesOnceTwoPeersAnswer() {
        AtomicInteger peers = new AtomicInteger(1);
        ElectionTickAdvance.start(LOG, true, 3, 1, 10, 100, clock, timer, peers::get, advanced::add, firstElection);
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(), advanced, "one peer is not enough, as in etcd");
        peers.set(2);
        clock.advance(TimeUnit.MILLISECONDS.toNanos(50));
        assertEquals(List.of(8, -1), advanced, "advanced, then the first election's hook");
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(8, -1), advanced, "once");
    }

    @Test
    void switchedOffOrAloneNothingIsAdvanced() {
        ElectionTickAdvance.start(LOG, false, 3, 1, 10, 100, clock, timer, () -> 2, advanced::add, firstElection);
        ElectionTickAdvance.start(LOG, true, 1, 1, 10, 100, clock, timer, () -> 2, advanced::add, firstElection);
        clock.advance(TimeUnit.SECONDS.toNanos(10));
        assertEquals(List.of(), advanced);
    }

    @Test
    void peersAnsweringAfterTheWaitChangeNothing() {
        AtomicInteger peers = new AtomicInteger(0);
        ElectionTickAdvance.start(LOG, true, 3, 1, 10, 100, clock, timer, peers::get, advanced::add, firstElection);
        clock.advance(TimeUnit.SECONDS.toNanos(6));
        peers.set(2);
        clock.advance(TimeUnit.SECONDS.toNanos(2));
        assertEquals(List.of(), advanced, "the member starts with the full timeout after 5 s without peers");
    }

    @Test
    void aSoleVoterCampaignsUntilItLeadsThenStops() {
        AtomicInteger campaigns = new AtomicInteger();
        AtomicInteger leader = new AtomicInteger();
        ElectionTickAdvance.startSoleVoter(clock, timer, () -> leader.get() != 0, () -> {
            if (campaigns.incrementAndGet() == 3) {
                leader.set(1); // Raft refused the first two: conf changes still unapplied
            }
        });
        clock.advance(TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(3, campaigns.get(), "campaigns every 10 ms until it leads, then no more");
    }

    @Test
    void aSoleVoterThatCannotCampaignStopsTrying() {
        AtomicInteger campaigns = new AtomicInteger();
        ElectionTickAdvance.startSoleVoter(clock, timer, () -> false, campaigns::incrementAndGet);
        clock.advance(TimeUnit.SECONDS.toNanos(10));
        int tried = campaigns.get();
        clock.advance(TimeUnit.SECONDS.toNanos(10));
        assertEquals(tried, campaigns.get(), "no more tries after 5 s");
        assertEquals(500, tried);
    }
}
