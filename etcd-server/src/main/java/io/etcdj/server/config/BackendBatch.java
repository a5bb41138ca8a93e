package io.etcdj.server.config;

import java.time.Duration;

/**
 * --backend-batch-interval and --backend-batch-limit: how long applied writes may wait, and how
 * many may accumulate, before the backend makes them durable. Every applied batch is committed to
 * LMDB at once (readers see it); these bound the fsync that follows, as they bound etcd's batch
 * transaction commit. 0 (the flags' default) means etcd's defaults: 100ms and 10000.
 */
public record BackendBatch(Duration interval, long limit) {
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);
    public static final long DEFAULT_LIMIT = 10_000;
    public static final BackendBatch DEFAULTS = new BackendBatch(DEFAULT_INTERVAL, DEFAULT_LIMIT);

    /** The flags' values, 0 or less standing for the default. */
    public static BackendBatch of(Duration interval, long limit) {
        return new BackendBatch(interval.isZero() || interval.isNegative() ? DEFAULT_INTERVAL : interval,
                limit <= 0 ? DEFAULT_LIMIT : limit);
    }
}
