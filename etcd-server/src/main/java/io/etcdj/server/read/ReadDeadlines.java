package io.etcdj.server.read;

import io.etcdj.server.error.EtcdError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The deadlines of waiting linearizable reads, swept on a timer instead of two timer tasks per read:
 * a read fails with "no leader" once it has waited {@code noLeaderNanos} while the member knows no
 * leader, and with a {@link TimeoutException} after {@code timeoutNanos}. Reads are tracked in
 * arrival order and all have the same limits, so a sweep stops at the first read too young to fail.
 */
public final class ReadDeadlines {
    private record Tracked(CompletableFuture<Void> read, long sinceNanos) {
    }

    private final ConcurrentLinkedQueue<Tracked> reads = new ConcurrentLinkedQueue<>();
    private final long noLeaderNanos;
    private final long timeoutNanos;
    private final LongSupplier clock;
    private final Runnable onFailed;

    public ReadDeadlines(long noLeaderNanos, long timeoutNanos, LongSupplier nanoClock) {
        this(noLeaderNanos, timeoutNanos, nanoClock, () -> { });
    }

    /** {@code onFailed} counts each read failed here (etcd_server_read_indexes_failed_total). */
    public ReadDeadlines(long noLeaderNanos, long timeoutNanos, LongSupplier nanoClock, Runnable onFailed) {
        this.onFailed = onFailed;
        this.noLeaderNanos = noLeaderNanos;
        this.timeoutNanos = timeoutNanos;
        this.clock = nanoClock;
    }

    public CompletableFuture<Void> track(CompletableFuture<Void> read) {
        reads.add(new Tracked(read, clock.getAsLong()));
        return read;
    }

    /** Fails the reads past their limits; {@code leaderKnown}: whether the member has a leader now. */
    public void sweep(boolean leaderKnown) {
        long now = clock.getAsLong();
        for (Tracked t = reads.peek(); t != null; t = reads.peek()) {
            long waited = now - t.sinceNanos();
            if (t.read().isDone()) {
                reads.poll();
            } else if (waited >= timeoutNanos) {
                reads.poll();
                onFailed.run();
                t.read().completeExceptionally(new TimeoutException());
            } else if (waited >= noLeaderNanos && !leaderKnown) {
                reads.poll();
                onFailed.run();
                t.read().completeExceptionally(EtcdError.NO_LEADER.exception());
            } else {
                return;
            }
        }
    }
}
