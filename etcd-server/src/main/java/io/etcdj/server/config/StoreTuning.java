package io.etcdj.server.config;

import java.time.Duration;

/**
 * Lease checkpoints and batched compaction. {@code leaseCheckpoint}: the leader records each
 * lease's remaining TTL through Raft every {@code leaseCheckpointInterval} (gate LeaseCheckpoint,
 * or --experimental-enable-lease-checkpoint); {@code leaseCheckpointPersist}: every member also
 * writes it to the lease bucket, so it survives a restart (gate LeaseCheckpointPersist; a 3.6
 * cluster persists them anyway). {@code compactionBatchLimit} revisions are removed per backend
 * transaction by the background compaction, with {@code compactionSleepInterval} between them
 * (--compaction-batch-limit, --compaction-sleep-interval; 0 or less means etcd's defaults).
 */
public record StoreTuning(
        boolean leaseCheckpoint,
        boolean leaseCheckpointPersist,
        Duration leaseCheckpointInterval,
        int compactionBatchLimit,
        Duration compactionSleepInterval) {

    /** etcd's defaultLeaseCheckpointInterval. */
    public static final Duration DEFAULT_LEASE_CHECKPOINT_INTERVAL = Duration.ofMinutes(5);
    /** etcd's defaultCompactionBatchLimit. */
    public static final int DEFAULT_COMPACTION_BATCH_LIMIT = 1000;
    /** etcd's defaultCompactionSleepInterval. */
    public static final Duration DEFAULT_COMPACTION_SLEEP_INTERVAL = Duration.ofMillis(10);

    /** This server's defaults: etcd's, except that lease checkpoints are on and persisted (docs/operations.md). */
    public static final StoreTuning DEFAULTS = new StoreTuning(true, true, DEFAULT_LEASE_CHECKPOINT_INTERVAL,
            DEFAULT_COMPACTION_BATCH_LIMIT, DEFAULT_COMPACTION_SLEEP_INTERVAL);

    /**
     * The checkpoint interval: etcd has no flag for it (its tests set it in the server's config);
     * here the system property {@code etcdj.lease-checkpoint-interval} or the variable
     * {@code ETCDJ_LEASE_CHECKPOINT_INTERVAL} (a Go duration) set it, for tests.
     */
    static Duration checkpointIntervalOverride() throws ConfigException {
        String v = System.getProperty("etcdj.lease-checkpoint-interval");
        if (v == null) {
            v = System.getenv("ETCDJ_LEASE_CHECKPOINT_INTERVAL");
        }
        if (v == null || v.isBlank()) {
            return DEFAULT_LEASE_CHECKPOINT_INTERVAL;
        }
        Duration d = Durations.parse(v, "lease-checkpoint-interval");
        return d.isZero() || d.isNegative() ? DEFAULT_LEASE_CHECKPOINT_INTERVAL : d;
    }

    /** The flags' values; 0 or less stands for etcd's default, as etcd's store config does. */
    static StoreTuning of(boolean checkpoint, boolean persist, Duration interval, long batchLimit, Duration sleep)
            throws ConfigException {
        if (persist && !checkpoint) {
            throw new ConfigException("enabling feature gate LeaseCheckpointPersist requires enabling feature gate LeaseCheckpoint");
        }
        return new StoreTuning(checkpoint, persist, interval,
                batchLimit <= 0 ? DEFAULT_COMPACTION_BATCH_LIMIT : (int) Math.min(Integer.MAX_VALUE, batchLimit),
                sleep.isZero() || sleep.isNegative() ? DEFAULT_COMPACTION_SLEEP_INTERVAL : sleep);
    }
}
