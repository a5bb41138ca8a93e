package io.etcdj.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One member's instruments under etcd 3.4's family names, help texts, types and buckets, in the
 * member's own Prometheus registry (etcd keeps one registry per process, which is one member;
 * here several members may share a JVM, so each has its instance and its /metrics shows its own
 * counts). The member creates it once and hands it to what it builds; call sites update an
 * instrument with one call. Values read from the member at scrape time are in {@link Gauges},
 * and {@link #render} writes the whole text format.
 */
public final class Metrics {
    final PrometheusRegistry registry = new PrometheusRegistry();
    /** Counters etcd names without {@code _total}; the library's writer appends it, {@link Exposition} takes it off. */
    final Set<String> noTotalSuffix = ConcurrentHashMap.newKeySet();

    public final Gauge hasLeader = gauge("etcd_server_has_leader", "Whether or not a leader exists. 1 is existence, 0 is not.");
    public final Gauge isLeader = gauge("etcd_server_is_leader", "Whether or not this member is a leader. 1 if is, 0 otherwise.");
    public final Counter leaderChanges = counter("etcd_server_leader_changes_seen_total", "The number of leader changes seen.");
    public final Gauge appliedIndex = gauge("etcd_server_proposals_applied_total",
            "The total number of consensus proposals applied.");
    public final Counter proposalsFailed = counter("etcd_server_proposals_failed_total", "The total number of failed proposals seen.");
    public final Counter healthSuccess = counter("etcd_server_health_success", "The total number of successful health checks");
    public final Counter healthFailures = counter("etcd_server_health_failures", "The total number of failed health checks");
    public final Counter slowApplies = counter("etcd_server_slow_apply_total",
            "The total number of slow apply requests (likely overloaded from slow disk).");
    public final Counter heartbeatSendFailures = counter("etcd_server_heartbeat_send_failures_total",
            "The total number of leader heartbeat send failures (likely overloaded from slow disk).");
    public final Counter learnerPromoteSuccesses = counter("etcd_server_learner_promote_successes",
            "The total number of successful learner promotions while this member is leader.");
    public final Counter readIndexesFailed = counter("etcd_server_read_indexes_failed_total",
            "The total number of failed read indexes seen.");
    public final Counter slowReadIndexes = counter("etcd_server_slow_read_indexes_total",
            "The total number of pending read indexes not in sync with leader's or timed out read index requests.");
    public final Gauge snapshotApplyInProgress = gauge("etcd_server_snapshot_apply_in_progress_total",
            "1 if the server is applying the incoming snapshot. 0 if none.");

    public final Timing walFsync = seconds("etcd_disk_wal_fsync_duration_seconds",
            "The latency distributions of fsync called by WAL.", 0.001, 14);
    public final Gauge walWriteBytes = gauge("etcd_disk_wal_write_bytes_total", "Total number of bytes written in WAL.");
    public final Timing backendCommit = seconds("etcd_disk_backend_commit_duration_seconds",
            "The latency distributions of commit called by backend.", 0.001, 14);
    public final Timing backendDefrag = seconds("etcd_disk_backend_defrag_duration_seconds",
            "The latency distribution of backend defragmentation.", 0.1, 13);
    public final Timing backendSnapshot = seconds("etcd_disk_backend_snapshot_duration_seconds",
            "The latency distribution of backend snapshots.", 0.01, 17);
    public final Gauge defragInflight = gauge("etcd_disk_defrag_inflight",
            "Whether or not defrag is active on the member. 1 means active, 0 means not.");
    /** bbolt's commit phases; for LMDB: spill = writing the batch into the transaction, write = LMDB's commit. */
    final Timing backendCommitRebalance = seconds("etcd_debugging_disk_backend_commit_rebalance_duration_seconds",
            "The latency distributions of commit.rebalance called by bboltdb backend.", 0.001, 14);
    final Timing backendCommitSpill = seconds("etcd_debugging_disk_backend_commit_spill_duration_seconds",
            "The latency distributions of commit.spill called by bboltdb backend.", 0.001, 14);
    final Timing backendCommitWrite = seconds("etcd_debugging_disk_backend_commit_write_duration_seconds",
            "The latency distributions of commit.write called by bboltdb backend.", 0.001, 14);

    final Timing snapFsync = seconds("etcd_snap_fsync_duration_seconds",
            "The latency distributions of fsync called by snap.", 0.001, 14);
    public final Timing snapDbFsync = seconds("etcd_snap_db_fsync_duration_seconds",
            "The latency distributions of fsyncing .snap.db file", 0.001, 14);
    public final Timing snapDbSave = seconds("etcd_snap_db_save_total_duration_seconds",
            "The total latency distributions of v3 snapshot save", 0.1, 10);
    final Timing snapSaveMarshalling = seconds("etcd_debugging_snap_save_marshalling_duration_seconds",
            "The marshalling cost distributions of save called by snapshot.", 0.001, 14);
    final Timing snapSaveTotal = seconds("etcd_debugging_snap_save_total_duration_seconds",
            "The total latency distributions of save called by snapshot.", 0.001, 14);

    /** Requests served, counted per request (etcd counts inside the store, per operation). */
    public final Counter ranges = counter("etcd_mvcc_range_total", "Total number of ranges seen by this member.");
    public final Counter puts = counter("etcd_mvcc_put_total", "Total number of puts seen by this member.");
    public final Counter deletes = counter("etcd_mvcc_delete_total", "Total number of deletes seen by this member.");
    public final Counter txns = counter("etcd_mvcc_txn_total", "Total number of txns seen by this member.");
    final Gauge openReadTxns = gauge("etcd_mvcc_db_open_read_transactions",
            "The number of currently open read transactions");
    public final Timing hash = seconds("etcd_mvcc_hash_duration_seconds",
            "The latency distribution of storage hash operation.", 0.01, 15);
    public final Timing hashRev = seconds("etcd_mvcc_hash_rev_duration_seconds",
            "The latency distribution of storage hash by revision operation.", 0.01, 15);
    public final Gauge totalPutSize = gauge("etcd_debugging_mvcc_total_put_size_in_bytes",
            "The total size of put kv pairs seen by this member.");
    public final Gauge watchStreams = gauge("etcd_debugging_mvcc_watch_stream_total", "Total number of watch streams.");
    public final Gauge pendingEvents = gauge("etcd_debugging_mvcc_pending_events_total",
            "Total number of pending events to be sent.");
    public final Counter events = counter("etcd_debugging_mvcc_events_total", "Total number of events sent by this member.");
    final Counter compactionKeys = counter("etcd_debugging_mvcc_db_compaction_keys_total",
            "Total number of db keys compacted.");
    final Histogram compactionPauseMs = histogram("etcd_debugging_mvcc_db_compaction_pause_duration_milliseconds",
            "Bucketed histogram of db compaction pause duration.", 1, 13);
    final Histogram compactionTotalMs = histogram("etcd_debugging_mvcc_db_compaction_total_duration_milliseconds",
            "Bucketed histogram of db compaction total duration.", 100, 14);
    final Histogram indexCompactionPauseMs = histogram(
            "etcd_debugging_mvcc_index_compaction_pause_duration_milliseconds",
            "Bucketed histogram of index compaction pause duration.", 0.5, 14);

    final Counter leaseGranted = counter("etcd_debugging_lease_granted_total", "The total number of granted leases.");
    final Counter leaseRevoked = counter("etcd_debugging_lease_revoked_total", "The total number of revoked leases.");
    final Counter leaseRenewed = counter("etcd_debugging_lease_renewed_total",
            "The number of renewed leases seen by the leader.");
    final Histogram leaseTtl = histogram("etcd_debugging_lease_ttl_total", "Bucketed histogram of lease TTLs.", 1, 24);
    public final Counter leaseExpired = counter("etcd_debugging_server_lease_expired_total",
            "The total number of expired leases.");

    /** etcd's etcd_debugging_store_* families (membership operations). */
    public final V2StoreMetrics v2store = new V2StoreMetrics(this);
    /** The instruments the storage packages count into, each given only its own (docs/server.md's package table). */
    public final BackendMetrics backend = new BackendMetrics(this);
    public final MvccMetrics mvcc = new MvccMetrics(this);
    public final LeaseMetrics leases = new LeaseMetrics(this);
    public final SnapMetrics snap = new SnapMetrics(this);
    /** go-grpc-prometheus' server families and etcd's client request counts, for the client port's interceptor. */
    public final GrpcMetrics.Families grpc = new GrpcMetrics.Families(this);
    /** etcd_network_* peer families. */
    public final PeerMetrics peers = new PeerMetrics(this);
    /** The gRPC proxy's families: exported at zero by a member, as etcd's. */
    public final GrpcProxyMetrics proxy = new GrpcProxyMetrics(this);
    private final Exposition exposition = new Exposition(this);

    /** A registry of its own with every family registered, at zero. */
    public Metrics() {
        ProcessMetrics.register(registry);
    }

    /** The whole exposition (GET /metrics), with the member's values read at scrape time. */
    public String render(Gauges server) {
        return exposition.render(server);
    }

    /** A put request of a key and value of {@code bytes} together. */
    public void put(int bytes) {
        puts.inc();
        totalPutSize.inc(bytes);
    }

    Counter counter(String name, String help, String... labels) {
        if (!name.endsWith("_total")) {
            noTotalSuffix.add(name);
        }
        return Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(registry);
    }

    Gauge gauge(String name, String help, String... labels) {
        return Gauge.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(registry);
    }

    /** A classic histogram with etcd's exponential buckets: {@code start}, doubling, {@code count} of them. */
    Histogram histogram(String name, String help, double start, int count, String... labels) {
        return Histogram.builder().name(name).help(help).labelNames(labels).classicOnly()
                .classicExponentialUpperBounds(start, 2, count).withoutExemplars().register(registry);
    }

    Timing seconds(String name, String help, double start, int count) {
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
