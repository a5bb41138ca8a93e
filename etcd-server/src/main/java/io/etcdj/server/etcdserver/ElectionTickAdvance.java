package io.etcdj.server.etcdserver;

import io.etcdj.server.clock.Clock;
import io.etcdj.server.log.Log;
import io.etcdj.server.membership.MemberIds;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * etcd's initial election tick advance (--initial-election-tick-advance, on by default): a member
 * of a multi-member cluster that starts waits up to 5 s (etcd's connection read timeout) for more
 * than one other member to answer; then it moves its election clock forward by all but two ticks
 * of the election timeout, so a cluster that lost its leader while this member was down elects
 * one without a whole election timeout of waiting. With the flag off, or when the peers do not
 * answer in time, the member starts with the full timeout. A one-member cluster's member does
 * not wait for a timeout at all ({@link #startSoleVoter}).
 *
 * <p>Beyond etcd: with the advance, the member given {@code firstElection} (the one with the lowest
 * ID) also opens a new cluster's first election at once, instead of waiting out the 2 to 11 ticks
 * of randomized timeout the advance leaves (200 ms to 1.1 s at etcd's defaults): members started
 * together serve as soon as they see each other. Raft allows a campaign at any time; the others
 * keep their timers, so a first election that fails is followed by the usual one. The peers are
 * looked for every 10 ms rather than etcd's 50.
 */
final class ElectionTickAdvance {
    private static final long WAIT_MILLIS = 5000;
    private static final long EVERY_MILLIS = 10;

    private ElectionTickAdvance() {
    }

    /**
     * A one-member cluster's member campaigns as soon as Raft lets it (once the conf changes of its
     * bootstrap or replay are applied), rather than at its first tick as etcd's, which fast-forwards
     * such a member to one tick before its election: {@code campaign} runs every 10 ms until
     * {@code hasLeader}, for at most 5 s (a member that cannot campaign, a learner, stops trying).
     */
    static void startSoleVoter(Clock clock, ScheduledExecutorService timer, BooleanSupplier hasLeader, Runnable campaign) {
        pollUntil(clock, timer, 0, () -> {
            if (hasLeader.getAsBoolean()) {
                return true;
            }
            campaign.run();
            return false;
        });
    }

    /**
     * Starts the advance on {@code timer}: {@code activePeers} says how many other members answer,
     * {@code advance} moves the Raft clock by that many ticks, and {@code firstElection} runs just
     * after it (a campaign if the cluster is new and this member opens its first election).
     */
    static void start(Log log, boolean enabled, int members, long memberId, long electionTicks, long tickMillis,
                      Clock clock, ScheduledExecutorService timer, IntSupplier activePeers, IntConsumer advance,
                      Runnable firstElection) {
        if (members <= 1) {
            return;
        }
        if (!enabled) {
            log.info("skipping initial election tick advance", "election-ticks", electionTicks);
            return;
        }
        log.info("starting initial election tick advance", "election-ticks", electionTicks);
        int ticks = (int) Math.max(0, electionTicks - 2);
        pollUntil(clock, timer, EVERY_MILLIS, () -> {
            int peers = activePeers.getAsInt();
            if (peers <= 1) {
                return false;
            }
            log.info("initialized peer connections; fast-forwarding election ticks",
                    "local-member-id", MemberIds.hex(memberId), "forward-ticks", ticks,
                    "forward-duration", ticks * tickMillis + "ms", "election-ticks", electionTicks,
                    "active-remote-members", peers);
            advance.accept(ticks);
            firstElection.run();
            return true;
        });
    }

    /**
     * Runs {@code step} every {@link #EVERY_MILLIS} on {@code timer}, the first time after
     * {@code initialDelayMillis}, until it returns true or {@link #WAIT_MILLIS} worth of polls have run.
     */
    private static void pollUntil(Clock clock, ScheduledExecutorService timer, long initialDelayMillis, BooleanSupplier step) {
        AtomicLong pollsLeft = new AtomicLong(WAIT_MILLIS / EVERY_MILLIS);
        CompletableFuture<Future<?>> polling = new CompletableFuture<>();
        polling.complete(clock.scheduleWithFixedDelay(timer, () -> {
            if (step.getAsBoolean() || pollsLeft.decrementAndGet() <= 0) {
                polling.join().cancel(false);
            }
        }, initialDelayMillis, EVERY_MILLIS, TimeUnit.MILLISECONDS));
    }
}
