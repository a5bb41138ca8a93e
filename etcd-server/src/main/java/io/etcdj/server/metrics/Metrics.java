package io.etcdj.server.metrics;

import io.etcdj.server.version.Versions;


import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The member's metrics under etcd's names, rendered in Prometheus text format on /metrics.
 * Process-wide, like Prometheus' default registry in etcd.
 */
public final class Metrics {
    public static final Gauge HAS_LEADER = new Gauge("etcd_server_has_leader",
            "Whether or not a leader exists. 1 is existence, 0 is not.");
    public static final Gauge IS_LEADER = new Gauge("etcd_server_is_leader",
            "Whether or not this member is a leader. 1 if is, 0 otherwise.");
    public static final Counter LEADER_CHANGES = new Counter("etcd_server_leader_changes_seen_total",
            "The number of leader changes seen.");
    public static final Gauge APPLIED_INDEX = new Gauge("etcd_server_proposals_applied_total",
            "The total number of consensus proposals applied.");
    public static final Histogram WAL_FSYNC = new Histogram("etcd_disk_wal_fsync_duration_seconds",
            "The latency distributions of fsync called by WAL.", 0.001, 14);
    public static final Histogram BACKEND_COMMIT = new Histogram("etcd_disk_backend_commit_duration_seconds",
            "The latency distributions of commit called by backend.", 0.001, 14);
    public static final Histogram BACKEND_DEFRAG = new Histogram("etcd_disk_backend_defrag_duration_seconds",
            "The latency distribution of backend defragmentation.", 0.1, 13);
    public static final Counter PROPOSALS_FAILED = new Counter("etcd_server_proposals_failed_total",
            "The total number of failed proposals seen.");
    public static final Counter HEALTH_SUCCESS = new Counter("etcd_server_health_success",
            "The total number of successful health checks");
    public static final Counter HEALTH_FAILURES = new Counter("etcd_server_health_failures",
            "The total number of failed health checks");
    public static final Counter SLOW_APPLIES = new Counter("etcd_server_slow_apply_total",
            "The total number of slow apply requests (likely overloaded from slow disk).");
    /** Requests served, counted per request (etcd counts inside the store, per operation). */
    public static final Counter RANGES = new Counter("etcd_mvcc_range_total", "Total number of ranges seen by this member.");
    public static final Counter PUTS = new Counter("etcd_mvcc_put_total", "Total number of puts seen by this member.");
    public static final Counter DELETES = new Counter("etcd_mvcc_delete_total", "Total number of deletes seen by this member.");
    public static final Counter TXNS = new Counter("etcd_mvcc_txn_total", "Total number of txns seen by this member.");

    private Metrics() {
    }

    /** A value that goes up and down. */
    public static final class Gauge {
        final String name;
        final String help;
        private final AtomicLong value = new AtomicLong();

        Gauge(String name, String help) {
            this.name = name;
            this.help = help;
        }

        public void set(long v) {
            value.set(v);
        }

        void render(StringBuilder sb) {
            gauge(sb, name, help, value.get());
        }
    }

    /** A value that only goes up. */
    public static final class Counter {
        final String name;
        final String help;
        private final AtomicLong value = new AtomicLong();

        Counter(String name, String help) {
            this.name = name;
            this.help = help;
        }

        public void inc() {
            value.incrementAndGet();
        }

        void render(StringBuilder sb) {
            sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                    .append("# TYPE ").append(name).append(" counter\n")
                    .append(name).append(' ').append(value.get()).append('\n');
        }
    }

    /** Prometheus histogram with exponential buckets, as etcd's (start, factor 2, count). */
    public static final class Histogram {
        final String name;
        final String help;
        private final double[] bounds;
        private final AtomicLongArray counts;
        private final AtomicLong count = new AtomicLong();
        private final DoubleAdder sum = new DoubleAdder();

        Histogram(String name, String help, double start, int n) {
            this.name = name;
            this.help = help;
            this.bounds = new double[n];
            for (int i = 0; i < n; i++) {
                bounds[i] = start * Math.pow(2, i);
            }
            this.counts = new AtomicLongArray(n);
        }

        public void observeNanos(long nanos) {
            double s = nanos / 1e9;
            for (int i = 0; i < bounds.length; i++) {
                if (s <= bounds[i]) {
                    counts.incrementAndGet(i);
                    break;
                }
            }
            count.incrementAndGet();
            sum.add(s);
        }

        public long count() {
            return count.get();
        }

        void render(StringBuilder sb) {
            sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                    .append("# TYPE ").append(name).append(" histogram\n");
            long cumulative = 0;
            for (int i = 0; i < bounds.length; i++) {
                cumulative += counts.get(i);
                sb.append(name).append("_bucket{le=\"").append(format(bounds[i])).append("\"} ").append(cumulative).append('\n');
            }
            sb.append(name).append("_bucket{le=\"+Inf\"} ").append(count.get()).append('\n')
                    .append(name).append("_sum ").append(sum.sum()).append('\n')
                    .append(name).append("_count ").append(count.get()).append('\n');
        }

        private static String format(double d) {
            String s = Double.toString(d);
            return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
        }
    }

    static void gauge(StringBuilder sb, String name, String help, long v) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(" gauge\n")
                .append(name).append(' ').append(v).append('\n');
    }

    /** Values read from the member at scrape time ({@code leases} is not exported: etcd has no such family). */
    public record Gauges(long committedIndex, long quotaBackendBytes, long dbSize, long dbSizeInUse, long revision,
                         long compactRevision, long watchers, long leases, long memberId, boolean learner) {
    }

    /** The whole exposition, with the member's values read at scrape time. */
    public static String render(Gauges server) {
        StringBuilder sb = new StringBuilder(4096);
        HAS_LEADER.render(sb);
        IS_LEADER.render(sb);
        LEADER_CHANGES.render(sb);
        APPLIED_INDEX.render(sb);
        gauge(sb, "etcd_server_proposals_committed_total", "The total number of consensus proposals committed.",
                server.committedIndex());
        gauge(sb, "etcd_server_quota_backend_bytes", "Current backend storage quota size in bytes.",
                server.quotaBackendBytes());
        gauge(sb, "etcd_mvcc_db_total_size_in_bytes",
                "Total size of the underlying database physically allocated in bytes.", server.dbSize());
        gauge(sb, "etcd_mvcc_db_total_size_in_use_in_bytes",
                "Total size of the underlying database logically in use in bytes.", server.dbSizeInUse());
        gauge(sb, "etcd_debugging_mvcc_current_revision", "The current revision of store.",
                server.revision());
        gauge(sb, "etcd_debugging_mvcc_compact_revision", "The revision of the last compaction in store.",
                server.compactRevision());
        gauge(sb, "etcd_debugging_mvcc_watcher_total", "Total number of watchers.", server.watchers());
        WAL_FSYNC.render(sb);
        BACKEND_COMMIT.render(sb);
        BACKEND_DEFRAG.render(sb);
        PROPOSALS_FAILED.render(sb);
        SLOW_APPLIES.render(sb);
        HEALTH_SUCCESS.render(sb);
        HEALTH_FAILURES.render(sb);
        RANGES.render(sb);
        PUTS.render(sb);
        DELETES.render(sb);
        TXNS.render(sb);
        gauge(sb, "etcd_server_is_learner", "Whether or not this member is a learner. 1 if is, 0 otherwise.",
                server.learner() ? 1 : 0);
        sb.append("# HELP etcd_server_id Server or member ID in hexadecimal format. 1 for 'server_id' label with current ID.\n")
                .append("# TYPE etcd_server_id gauge\n")
                .append("etcd_server_id{server_id=\"").append(Long.toHexString(server.memberId())).append("\"} 1\n");
        sb.append("# HELP etcd_cluster_version Which version is running. 1 for 'cluster_version' label with current cluster version\n")
                .append("# TYPE etcd_cluster_version gauge\n")
                .append("etcd_cluster_version{cluster_version=\"").append(Versions.CLUSTER.substring(0, 3)).append("\"} 1\n");
        sb.append("# HELP etcd_server_version Which version is running. 1 for 'server_version' label with current version.\n")
                .append("# TYPE etcd_server_version gauge\n")
                .append("etcd_server_version{server_version=\"").append(Versions.SERVER).append("\"} 1\n");
        GrpcMetrics.render(sb);
        ProcessMetrics.render(sb);
        return sb.toString();
    }
}
