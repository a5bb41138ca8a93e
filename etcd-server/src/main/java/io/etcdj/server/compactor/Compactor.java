package io.etcdj.server.compactor;

import io.etcdj.cli.GoDuration;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * etcd's auto-compaction. "periodic" keeps a window of history: it samples the revision and,
 * once the retention has passed, compacts to the revision seen one window ago. "revision" keeps
 * the last N revisions, checked every 5 minutes. Only the leader compacts; it goes through Raft.
 */
public final class Compactor {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** What the compactor needs from the member (owned here, so this package depends on no server class). */
    public interface Target {
        long currentRevision();

        long compactRevision();

        boolean isLeader();

        /** Proposes a compaction through Raft; completes when applied. */
        CompletableFuture<?> compact(long revision);
    }

    private final Target server;
    private final LongSupplier nanoClock;
    private final String mode;
    private final String retention;
    private final Deque<long[]> samples = new ArrayDeque<>();
    private long lastCompacted;

    /** The compactor {@code cfg}'s flags ask for, sampling on the member's clock. */
    public Compactor(Target server, ServerConfig cfg, Clock clock, LogSink logs) {
        this(server, cfg.autoCompactionMode(), cfg.autoCompactionRetention(), clock::nanoTime, logs);
    }

    /** For tests: the mode and retention as etcd's flags spell them, and the clock to sample with. */
    Compactor(Target server, String mode, String retention, LongSupplier nanoClock, LogSink logs) {
        this.log = logs.logger("v3compactor");
        this.server = server;
        this.nanoClock = nanoClock;
        this.mode = mode;
        this.retention = retention;
    }

    /** Runs the compactor's checks on {@code timers}, every interval of {@code clock}'s time. */
    public void schedule(Clock clock, ScheduledExecutorService timers) {
        if (mode.equals("revision")) {
            long keep = parseLong(retention);
            if (keep > 0) {
                clock.scheduleWithFixedDelay(timers, () -> compactKeeping(keep), 5, 5, TimeUnit.MINUTES);
            }
            return;
        }
        Duration window = periodicRetention(retention);
        if (window.isZero()) {
            return;
        }
        // Sample ten times per window (at most once an hour), as etcd's periodic compactor does.
        long sampleMillis = Math.max(1, Math.min(window.toMillis() / 10, TimeUnit.HOURS.toMillis(1)));
        clock.scheduleWithFixedDelay(timers, () -> periodic(window), sampleMillis, sampleMillis, TimeUnit.MILLISECONDS);
    }

    static Duration periodicRetention(String s) {
        try {
            return GoDuration.parse(s);
        } catch (IllegalArgumentException e) {
            return Duration.ofHours(parseLong(s)); // etcd's --auto-compaction-retention: hours when it has no unit
        }
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** One sample of the periodic mode: compacts to the revision seen one window ago, if any. */
    void periodic(Duration window) {
        long now = nanoClock.getAsLong();
        samples.addLast(new long[] {now, server.currentRevision()});
        long target = 0;
        while (!samples.isEmpty() && now - samples.peekFirst()[0] >= window.toNanos()) {
            target = samples.pollFirst()[1];
        }
        if (target > 0) {
            compact(target);
        }
    }

    /** The revision mode's check: keeps the last {@code keep} revisions. */
    void compactKeeping(long keep) {
        compact(server.currentRevision() - keep);
    }

    private void compact(long rev) {
        if (!server.isLeader() || rev <= lastCompacted || rev <= server.compactRevision()) {
            return;
        }
        lastCompacted = rev;
        server.compact(rev).whenComplete((r, e) -> {
            if (e == null) {
                log.info("completed auto compaction", "revision", rev);
            } else {
                // etcd's line (a lost leader or a timeout, usually); a later turn compacts further
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                log.warn("failed auto compaction", "revision", rev, "error", String.valueOf(cause.getMessage()));
            }
        });
    }
}
