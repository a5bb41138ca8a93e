package io.etcdj.server.config;

import java.util.List;

/** One server flag as etcd defines it: help group, name, default text, usage, and whether it is boolean. */
public record Flag(String group, String name, String defaultValue, String usage, boolean bool) {
    /** Every flag the server accepts, in the order --help lists them. */
    public static final List<Flag> ALL = List.of(
            new Flag("Member", "name", "default", "Human-readable name for this member.", false),
            new Flag("Member", "data-dir", "${name}.etcd", "Path to the data directory.", false),
            new Flag("Member", "wal-dir", "", "Path to the dedicated wal directory.", false),
            new Flag("Member", "snapshot-count", "10000", "Number of committed transactions to trigger a snapshot to disk.", false),
            new Flag("Member", "heartbeat-interval", "100", "Time (in milliseconds) of a heartbeat interval.", false),
            new Flag("Member", "election-timeout", "1000", "Time (in milliseconds) for an election to timeout. See tuning documentation for details.", false),
            new Flag("Member", "listen-peer-urls", "http://localhost:2380", "List of URLs to listen on for peer traffic.", false),
            new Flag("Member", "listen-client-urls", "http://localhost:2379", "List of URLs to listen on for client traffic.", false),
            new Flag("Member", "max-snapshots", "5", "Maximum number of snapshot files to retain (0 is unlimited).", false),
            new Flag("Member", "max-wals", "5", "Maximum number of wal files to retain (0 is unlimited).", false),
            new Flag("Member", "quota-backend-bytes", "0", "Raise alarms when backend size exceeds the given quota (0 defaults to low space quota).", false),
            new Flag("Member", "max-txn-ops", "128", "Maximum number of operations permitted in a transaction.", false),
            new Flag("Member", "max-request-bytes", "1572864", "Maximum client request size in bytes the server will accept.", false),
            new Flag("Clustering", "initial-advertise-peer-urls", "http://localhost:2380", "List of this member's peer URLs to advertise to the rest of the cluster.", false),
            new Flag("Clustering", "initial-cluster", "default=http://localhost:2380", "Initial cluster configuration for bootstrapping.", false),
            new Flag("Clustering", "initial-cluster-state", "new", "Initial cluster state ('new' or 'existing').", false),
            new Flag("Clustering", "initial-cluster-token", "etcd-cluster", "Initial cluster token for the etcd cluster during bootstrap.", false),
            new Flag("Clustering", "advertise-client-urls", "http://localhost:2379", "List of this member's client URLs to advertise to the public.", false),
            new Flag("Clustering", "strict-reconfig-check", "true", "Reject reconfiguration requests that would cause quorum loss.", true),
            new Flag("Clustering", "pre-vote", "true", "Enable to run an additional Raft election phase.", true),
            new Flag("Clustering", "auto-compaction-retention", "0", "Auto compaction retention length. 0 means disable auto compaction.", false),
            new Flag("Clustering", "auto-compaction-mode", "periodic", "Interpret 'auto-compaction-retention' one of: periodic|revision. 'periodic' for duration based retention, defaulting to hours if no time unit is provided (e.g. '5m'). 'revision' for revision number based retention.", false),
            new Flag("Logging", "logger", "zap", "Currently only supports 'zap' for structured logging.", false),
            new Flag("Logging", "log-outputs", "default", "Specify 'stdout' or 'stderr' to skip journald logging even when running under systemd, or list of comma separated output targets.", false),
            new Flag("Logging", "log-level", "info", "Configures log level. Only supports debug, info, warn, error, panic, or fatal.", false),
            new Flag("Experimental", "experimental-snapshot-catchup-entries", "5000", "Number of entries for a slow follower to catch up after compacting the raft storage entries.", false),
            new Flag("Experimental", "experimental-watch-progress-notify-interval", "10m0s", "Duration of periodical watch progress notification.", false),
            new Flag("Unsafe", "force-new-cluster", "false", "Force to create a new one-member cluster.", true),
            new Flag("Unsafe", "unsafe-no-fsync", "false", "Disables fsync, unsafe, will cause data loss.", true));

    public static Flag find(String name) {
        for (Flag f : ALL) {
            if (f.name.equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** The environment variable etcd reads for this flag: ETCD_ plus the name in upper case with '_'. */
    public String envName() {
        return "ETCD_" + name.toUpperCase().replace('-', '_');
    }
}
