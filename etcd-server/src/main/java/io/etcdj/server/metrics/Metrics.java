package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The member's instruments under etcd 3.4's family names, help texts, types and buckets, kept in
 * one Prometheus registry per process (as etcd's default registry). Call sites update them with
 * one call; values read from the member at scrape time are in {@link Gauges}, and
 * {@link Exposition} writes the whole text format.
 */
public final class Metrics {
    static final PrometheusRegistry REGISTRY = new PrometheusRegistry();
    /** Counters etcd names without {@code _total}; the library's writer appends it, {@link Exposition} takes it off. */
    static final Set<String> NO_TOTAL_SUFFIX = ConcurrentHashMap.newKeySet();

    public static final Gauge HAS_LEADER = gauge("etcd_server_has_leader", "Whether or not a leader exists. 1 is existence, 0 is not.");
    public static final Gauge IS_LEADER = gauge("etcd_server_is_leader", "Whether or not this member is a leader. 1 if is, 0 otherwise.");
    public static final Counter LEADER_CHANGES = counter("etcd_server_leader_changes_seen_total", "The number of leader changes seen.");
    public static final Gauge APPLIED_INDEX = gauge("etcd_server_proposals_applied_total",
            "The total number of consensus proposals applied.");
    public static final Counter PROPOSALS_FAILED = counter("etcd_server_proposals_failed_total", "The total number of failed proposals seen.");
    public static final Counter HEALTH_SUCCESS = counter("etcd_server_health_success", "The total number of successful health checks");
    public static final Counter HEALTH_FAILURES = counter("etcd_server_health_failures", "The total number of failed health checks");
    public static final Counter SLOW_APPLIES = counter("etcd_server_slow_apply_total",
            "The total number of slow apply requests (likely overloaded from slow disk).");
    public static final Counter HEARTBEAT_SEND_FAILURES = counter("etcd_server_heartbeat_send_failures_total",
            "The total number of leader heartbeat send failures (likely overloaded from slow disk).");
    public static final Counter LEARNER_PROMOTE_SUCCESSES = counter("etcd_server_learner_promote_successes",
            "The total number of successful learner promotions while this member is leader.");
    public static final Counter READ_INDEXES_FAILED = counter("etcd_server_read_indexes_failed_total",
            "The total number of failed read indexes seen.");
    public static final Counter SLOW_READ_INDEXES = counter("etcd_server_slow_read_indexes_total",
            "The total number of pending read indexes not in sync with leader's or timed out read index requests.");
    public static final Gauge SNAPSHOT_APPLY_IN_PROGRESS = gauge("etcd_server_snapshot_apply_in_progress_total",
            "1 if the server is applying the incoming snapshot. 0 if none.");

    public static final Timing WAL_FSYNC = seconds("etcd_disk_wal_fsync_duration_seconds",
            "The latency distributions of fsync called by WAL.", 0.001, 14);
    public static final Gauge WAL_WRITE_BYTES = gauge("etcd_disk_wal_write_bytes_total", "Total number of bytes written in WAL.");
    public static final Timing BACKEND_COMMIT = seconds("etcd_disk_backend_commit_duration_seconds",
            "The latency distributions of commit called by backend.", 0.001, 14);
    public static final Timing BACKEND_DEFRAG = seconds("etcd_disk_backend_defrag_duration_seconds",
            "The latency distribution of backend defragmentation.", 0.1, 13);
    public static final Timing BACKEND_SNAPSHOT = seconds("etcd_disk_backend_snapshot_duration_seconds",
            "The latency distribution of backend snapshots.", 0.01, 17);
    public static final Gauge DEFRAG_INFLIGHT = gauge("etcd_disk_defrag_inflight",
            "Whether or not defrag is active on the member. 1 means active, 0 means not.");
    /** bbolt's commit phases; for LMDB: spill = writing the batch into the transaction, write = LMDB's commit. */
    public static final Timing BACKEND_COMMIT_REBALANCE = seconds("etcd_debugging_disk_backend_commit_rebalance_duration_seconds",
            "The latency distributions of commit.rebalance called by bboltdb backend.", 0.001, 14);
    public static final Timing BACKEND_COMMIT_SPILL = seconds("etcd_debugging_disk_backend_commit_spill_duration_seconds",
            "The latency distributions of commit.spill called by bboltdb backend.", 0.001, 14);
    public static final Timing BACKEND_COMMIT_WRITE = seconds("etcd_debugging_disk_backend_commit_write_duration_seconds",
            "The latency distributions of commit.write called by bboltdb backend.", 0.001, 14);

    public static final Timing SNAP_FSYNC = seconds("etcd_snap_fsync_duration_seconds",
            "The latency distributions of fsync called by snap.", 0.001, 14);
    public static final Timing SNAP_DB_FSYNC = seconds("etcd_snap_db_fsync_duration_seconds",
            "The latency distributions of fsyncing .snap.db file", 0.001, 14);
    public static final Timing SNAP_DB_SAVE = seconds("etcd_snap_db_save_total_duration_seconds",
            "The total latency distributions of v3 snapshot save", 0.1, 10);
    public static final Timing SNAP_SAVE_MARSHALLING = seconds("etcd_debugging_snap_save_marshalling_duration_seconds",
            "The marshalling cost distributions of save called by snapshot.", 0.001, 14);
    public static final Timing SNAP_SAVE_TOTAL = seconds("etcd_debugging_snap_save_total_duration_seconds",
            "The total latency distributions of save called by snapshot.", 0.001, 14);

    /** Requests served, counted per request (etcd counts inside the store, per operation). */
    public static final Counter RANGES = counter("etcd_mvcc_range_total", "Total number of ranges seen by this member.");
    public static final Counter PUTS = counter("etcd_mvcc_put_total", "Total number of puts seen by this member.");
    public static final Counter DELETES = counter("etcd_mvcc_delete_total", "Total number of deletes seen by this member.");
    public static final Counter TXNS = counter("etcd_mvcc_txn_total", "Total number of txns seen by this member.");
    public static final Gauge OPEN_READ_TXNS = gauge("etcd_mvcc_db_open_read_transactions",
            "The number of currently open read transactions");
    public static final Timing HASH = seconds("etcd_mvcc_hash_duration_seconds",
            "The latency distribution of storage hash operation.", 0.01, 15);
    public static final Timing HASH_REV = seconds("etcd_mvcc_hash_rev_duration_seconds",
            "The latency distribution of storage hash by revision operation.", 0.01, 15);
    public static final Gauge TOTAL_PUT_SIZE = gauge("etcd_debugging_mvcc_total_put_size_in_bytes",
            "The total size of put kv pairs seen by this member.");
    public static final Gauge WATCH_STREAMS = gauge("etcd_debugging_mvcc_watch_stream_total", "Total number of watch streams.");
    public static final Gauge PENDING_EVENTS = gauge("etcd_debugging_mvcc_pending_events_total",
            "Total number of pending events to be sent.");
    public static final Counter EVENTS = counter("etcd_debugging_mvcc_events_total", "Total number of events sent by this member.");
    public static final Counter COMPACTION_KEYS = counter("etcd_debugging_mvcc_db_compaction_keys_total",
            "Total number of db keys compacted.");
    public static final Histogram COMPACTION_PAUSE_MS = histogram("etcd_debugging_mvcc_db_compaction_pause_duration_milliseconds",
            "Bucketed histogram of db compaction pause duration.", 1, 13);
    public static final Histogram COMPACTION_TOTAL_MS = histogram("etcd_debugging_mvcc_db_compaction_total_duration_milliseconds",
            "Bucketed histogram of db compaction total duration.", 100, 14);
    public static final Histogram INDEX_COMPACTION_PAUSE_MS = histogram(
            "etcd_debugging_mvcc_index_compaction_pause_duration_milliseconds",
            "Bucketed histogram of index compaction pause duration.", 0.5, 14);

    public static final Counter LEASE_GRANTED = counter("etcd_debugging_lease_granted_total", "The total number of granted leases.");
    public static final Counter LEASE_REVOKED = counter("etcd_debugging_lease_revoked_total", "The total number of revoked leases.");
    public static final Counter LEASE_RENEWED = counter("etcd_debugging_lease_renewed_total",
            "The number of renewed leases seen by the leader.");
    public static final Histogram LEASE_TTL = histogram("etcd_debugging_lease_ttl_total", "Bucketed histogram of lease TTLs.", 1, 24);
    public static final Counter LEASE_EXPIRED = counter("etcd_debugging_server_lease_expired_total",
            "The total number of expired leases.");

    static {
        ProcessMetrics.register(REGISTRY);
        V2StoreMetrics.init();
        GrpcMetrics.init();
        PeerMetrics.init();
        GrpcProxyMetrics.init();
    }

    private Metrics() {
    }

    /**
     * A backend transaction committed (started at {@code startNanos}). LMDB has no separate
     * rebalance and spill phases (it rebalances within each delete and writes its dirty pages in
     * the commit): those two are observed as zero per commit, so their counts are the commits.
     */
    public static void backendCommitted(long startNanos) {
        BACKEND_COMMIT_WRITE.since(startNanos);
        BACKEND_COMMIT_SPILL.observeNanos(0);
        BACKEND_COMMIT_REBALANCE.observeNanos(0);
    }

    /** A put request of a key and value of {@code bytes} together. */
    public static void put(int bytes) {
        PUTS.inc();
        TOTAL_PUT_SIZE.inc(bytes);
    }

    /** A lease granted with {@code ttlSeconds}. */
    public static void leaseGranted(long ttlSeconds) {
        LEASE_GRANTED.inc();
        LEASE_TTL.observe(ttlSeconds);
    }

    static Counter counter(String name, String help, String... labels) {
        if (!name.endsWith("_total")) {
            NO_TOTAL_SUFFIX.add(name);
        }
        return Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(REGISTRY);
    }

    static Gauge gauge(String name, String help, String... labels) {
        return Gauge.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(REGISTRY);
    }

    /** A classic histogram with etcd's exponential buckets: {@code start}, doubling, {@code count} of them. */
    static Histogram histogram(String name, String help, double start, int count, String... labels) {
        return Histogram.builder().name(name).help(help).labelNames(labels).classicOnly()
                .classicExponentialUpperBounds(start, 2, count).withoutExemplars().register(REGISTRY);
    }

    static Timing seconds(String name, String help, double start, int count) {
        return new Timing(histogram(name, help, start, count));
    }

    /** A histogram of durations in seconds, fed in nanoseconds. */
    public static final class Timing {
        private final Histogram histogram;

        Timing(Histogram histogram) {
            this.histogram = histogram;
        }

        public void observeNanos(long nanos) {
            histogram.observe(nanos / 1e9);
        }

        /** Observes the time since {@code startNanos} (a {@link System#nanoTime()} reading). */
        public void since(long startNanos) {
            observeNanos(System.nanoTime() - startNanos);
        }
    }

    /** Values read from the member at scrape time ({@code leases} is not exported: etcd has no such family). */
    public record Gauges(long committedIndex, long quotaBackendBytes, long dbSize, long dbSizeInUse, long revision,
                         long compactRevision, long watchers, long leases, long memberId, boolean learner,
                         long keys, long slowWatchers, long authRevision,
                         long proposalsPending, String clusterVersion) {
    }
}
