package io.etcdj.server.config;

import java.util.ArrayList;
import java.util.List;

/**
 * One server flag as etcd 3.6 defines it: help group, name, default text, usage, the kind of value
 * it takes (checked while parsing, with Go's flag errors), the 3.6 name a deprecated
 * {@code experimental-} spelling stands for ({@code replacedBy}), and, for a flag this server
 * cannot honour yet, why ({@code notYet}): such a flag is accepted at its default value only, any
 * other value stops the start-up with an error naming the flag.
 */
public record Flag(String group, String name, String defaultValue, String usage, Kind kind, String replacedBy,
                   String notYet) {

    /** The value syntax, as Go's flag types parse it. */
    public enum Kind { STRING, BOOL, INT, UINT, FLOAT, DURATION }

    /** Every flag the server accepts, in the order --help lists them. */
    public static final List<Flag> ALL = Catalog.build();

    /** A flag with an effect, as earlier code declared them. */
    public Flag(String group, String name, String defaultValue, String usage, boolean bool) {
        this(group, name, defaultValue, usage, bool ? Kind.BOOL : Kind.STRING, null, null);
    }

    public boolean bool() {
        return kind == Kind.BOOL;
    }

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

    /** The catalogue; one line per flag. */
    private static final class Catalog {
        private final List<Flag> flags = new ArrayList<>();
        private String group;

        static List<Flag> build() {
            Catalog c = new Catalog();
            c.group("Member");
            c.add("name", "default", "Human-readable name for this member.");
            c.add("data-dir", "${name}.etcd", "Path to the data directory.");
            c.add("wal-dir", "", "Path to the dedicated wal directory.");
            c.add("snapshot-count", "10000", Kind.UINT, "Number of committed transactions to trigger a snapshot to disk.");
            c.add("heartbeat-interval", "100", Kind.UINT, "Time (in milliseconds) of a heartbeat interval.");
            c.add("election-timeout", "1000", Kind.UINT,
                    "Time (in milliseconds) for an election to timeout. See tuning documentation for details.");
            c.add("initial-election-tick-advance", "true", Kind.BOOL,
                    "Whether to fast-forward initial election ticks on boot for faster election.");
            c.add("listen-peer-urls", "http://localhost:2380", "List of URLs to listen on for peer traffic.");
            c.add("listen-client-urls", "http://localhost:2379",
                    "List of URLs to listen on for client grpc traffic and http as long as --listen-client-http-urls is not specified.");
            c.add("listen-client-http-urls", "",
                    "List of URLs to listen on for http only client traffic. Enabling this flag removes http services from "
                    + "--listen-client-urls.");
            c.add("max-snapshots", "5", Kind.UINT, "Maximum number of snapshot files to retain (0 is unlimited).");
            c.add("max-wals", "5", Kind.UINT, "Maximum number of wal files to retain (0 is unlimited).");
            c.add("memory-mlock", "false", Kind.BOOL, "Enable to enforce etcd pages (in particular bbolt) to stay in RAM.");
            c.add("quota-backend-bytes", "0", Kind.INT,
                    "Raise alarms when backend size exceeds the given quota (0 defaults to low space quota).");
            c.add("backend-bbolt-freelist-type", "map", Kind.STRING,
                    "BackendFreelistType specifies the type of freelist that boltdb backend uses(array and map are supported types).");
            c.add("backend-batch-interval", "0s", Kind.DURATION,
                    "BackendBatchInterval is the maximum time before commit the backend transaction.");
            c.add("backend-batch-limit", "0", Kind.INT,
                    "BackendBatchLimit is the maximum operations before commit the backend transaction.");
            c.add("max-txn-ops", "128", Kind.UINT, "Maximum number of operations permitted in a transaction.");
            c.add("max-request-bytes", "1572864", Kind.UINT, "Maximum client request size in bytes the server will accept.");
            c.add("max-concurrent-streams", "4294967295", Kind.UINT, "Maximum concurrent streams that each client can open at a time.");
            c.add("enable-grpc-gateway", "true", Kind.BOOL, "Enable GRPC gateway.");
            c.add("grpc-keepalive-min-time", "5s", Kind.DURATION,
                    "Minimum duration interval that a client should wait before pinging server.");
            c.add("grpc-keepalive-interval", "2h0m0s", Kind.DURATION,
                    "Frequency duration of server-to-client ping to check if a connection is alive (0 to disable).");
            c.add("grpc-keepalive-timeout", "20s", Kind.DURATION,
                    "Additional duration of wait before closing a non-responsive connection (0 to disable).");
            c.add("socket-reuse-port", "false", Kind.BOOL,
                    "Enable to set socket option SO_REUSEPORT on listeners allowing rebinding of a port already in use.");
            c.add("socket-reuse-address", "false", Kind.BOOL,
                    "Enable to set socket option SO_REUSEADDR on listeners allowing binding to an address in TIME_WAIT state.");
            c.add("raft-read-timeout", "5s", Kind.DURATION, "Read timeout set on each rafthttp connection");
            c.add("raft-write-timeout", "5s", Kind.DURATION, "Write timeout set on each rafthttp connection");
            c.add("feature-gates", "",
                    "A set of key=value pairs that describe server level feature gates for alpha/experimental features. Options are:"
                    + "\n    " + String.join("\n    ", FeatureGates.describe()));

            c.group("Clustering");
            c.add("initial-advertise-peer-urls", "http://localhost:2380",
                    "List of this member's peer URLs to advertise to the rest of the cluster.");
            c.add("initial-cluster", "default=http://localhost:2380", "Initial cluster configuration for bootstrapping.");
            c.add("initial-cluster-state", "new",
                    "Initial cluster state ('new' when bootstrapping a new cluster or 'existing' when adding new members to an existing "
                    + "cluster).\n    After successful initialization (bootstrapping or adding), flag is ignored on restarts.");
            c.add("initial-cluster-token", "etcd-cluster",
                    "Initial cluster token for the etcd cluster during bootstrap.\n    Specifying this can protect you from unintended "
                    + "cross-cluster interaction when running multiple clusters.");
            c.add("advertise-client-urls", "http://localhost:2379",
                    "List of this member's client URLs to advertise to the public.\n    The client URLs advertised should be accessible to "
                    + "machines that talk to etcd cluster. etcd client libraries parse these URLs to connect to the cluster.");
            c.add("discovery", "",
                    "Discovery URL used to bootstrap the cluster for v2 discovery. Will be deprecated in v3.7, and be decommissioned in "
                    + "v3.8.");
            c.add("discovery-token", "", Kind.STRING, "V3 discovery: discovery token for the etcd cluster to be bootstrapped.");
            c.add("discovery-endpoints", "", Kind.STRING, "V3 discovery: List of gRPC endpoints of the discovery service.");
            c.add("discovery-dial-timeout", "2s", Kind.DURATION, "V3 discovery: dial timeout for client connections.");
            c.add("discovery-request-timeout", "5s", Kind.DURATION,
                    "V3 discovery: timeout for discovery requests (excluding dial timeout).");
            c.add("discovery-keepalive-time", "2s", Kind.DURATION, "V3 discovery: keepalive time for client connections.");
            c.add("discovery-keepalive-timeout", "6s", Kind.DURATION, "V3 discovery: keepalive timeout for client connections.");
            c.add("discovery-insecure-transport", "true", Kind.BOOL, "V3 discovery: disable transport security for client connections.");
            c.add("discovery-insecure-skip-tls-verify", "false", Kind.BOOL,
                    "V3 discovery: skip server certificate verification (CAUTION: this option should be enabled only for testing "
                    + "purposes).");
            c.add("discovery-cert", "", Kind.STRING, "V3 discovery: identify secure client using this TLS certificate file.");
            c.add("discovery-key", "", Kind.STRING, "V3 discovery: identify secure client using this TLS key file.");
            c.add("discovery-cacert", "", Kind.STRING,
                    "V3 discovery: verify certificates of TLS-enabled secure servers using this CA bundle.");
            c.add("discovery-user", "", Kind.STRING,
                    "V3 discovery: username[:password] for authentication (prompt if password is not supplied).");
            c.add("discovery-password", "", Kind.STRING,
                    "V3 discovery: password for authentication (if this option is used, --user option shouldn't include password).");
            c.add("discovery-fallback", "exit", Kind.STRING,
                    "Expected behavior ('exit') when discovery services fails. Note that v2 proxy is removed.");
            c.add("discovery-proxy", "", Kind.STRING,
                    "HTTP proxy to use for traffic to discovery service. Will be deprecated in v3.7, and be decommissioned in v3.8.");
            c.add("discovery-srv", "", "DNS srv domain used to bootstrap the cluster.");
            c.add("discovery-srv-name", "", "Suffix to the dns srv name queried when bootstrapping.");
            c.add("strict-reconfig-check", "true", Kind.BOOL, "Reject reconfiguration requests that would cause quorum loss.");
            c.add("pre-vote", "true", Kind.BOOL, "Enable to run an additional Raft election phase.");
            c.add("auto-compaction-retention", "0", "Auto compaction retention length. 0 means disable auto compaction.");
            c.add("auto-compaction-mode", "periodic",
                    "Interpret 'auto-compaction-retention' one of: periodic|revision. 'periodic' for duration based retention, defaulting "
                    + "to hours if no time unit is provided (e.g. '5m'). 'revision' for revision number based retention.");
            c.add("v2-deprecation", "write-only",
                    "Phase of v2store deprecation. Deprecated and scheduled for removal in v3.8. The default value is enforced, ignoring "
                    + "user input.\n    Supported values:"
                    + "\n      'not-yet'                // Issues a warning if v2store have meaningful content (default in v3.5)"
                    + "\n      'write-only'             // Custom v2 state is not allowed (default in v3.6)"
                    + "\n      'write-only-drop-data'   // Custom v2 state will get DELETED !"
                    + "\n      'gone'                   // v2store is not maintained any longer. (planned default in v3.7)");
            c.add("max-learners", "1", Kind.INT, "Sets the maximum number of learners that can be available in the cluster membership.");
            c.add("auto-promote-learners", "false", Kind.BOOL,
                    "Beyond etcd (its #15107): the leader promotes a learner to a voting member once its log has caught up (etcd's "
                    + "readiness rule: match index at least 90% of the leader's commit index).");

            c.group("Security");
            c.add("cert-file", "", "Path to the client server TLS cert file.");
            c.add("key-file", "", "Path to the client server TLS key file.");
            c.add("client-cert-auth", "false", Kind.BOOL, "Enable client cert authentication.");
            c.add("client-cert-file", "", Kind.STRING,
                    "Path to an explicit peer client TLS cert file otherwise cert file will be used when client auth is required.");
            c.add("client-key-file", "", Kind.STRING,
                    "Path to an explicit peer client TLS key file otherwise key file will be used when client auth is required.");
            c.add("client-crl-file", "", "Path to the client certificate revocation list file.");
            c.add("client-cert-allowed-hostname", "", "Comma-separated list of SAN hostnames for client cert authentication.");
            c.add("trusted-ca-file", "", "Path to the client server TLS trusted CA cert file.");
            c.add("auto-tls", "false", Kind.BOOL, "Client TLS using generated certificates.");
            c.add("peer-cert-file", "", "Path to the peer server TLS cert file.");
            c.add("peer-key-file", "", "Path to the peer server TLS key file.");
            c.add("peer-client-cert-auth", "false", Kind.BOOL, "Enable peer client cert authentication.");
            c.add("peer-trusted-ca-file", "", "Path to the peer server TLS trusted CA file.");
            c.add("peer-cert-allowed-cn", "", "Required CN for client certs connecting to the peer endpoint.");
            c.add("peer-cert-allowed-hostname", "", "Allowed TLS hostname for inter peer authentication.");
            c.add("peer-auto-tls", "false", Kind.BOOL,
                    "Peer TLS using self-generated certificates if --peer-key-file and --peer-cert-file are not provided.");
            c.add("peer-client-cert-file", "",
                    "Path to an explicit peer client TLS cert file otherwise peer cert file will be used when client auth is required.");
            c.add("peer-client-key-file", "",
                    "Path to an explicit peer client TLS key file otherwise peer key file will be used when client auth is required.");
            c.add("self-signed-cert-validity", "1", Kind.UINT,
                    "The validity period of the client and peer certificates that are automatically generated by etcd when you specify "
                    + "ClientAutoTLS and PeerAutoTLS, the unit is year, and the default is 1.");
            c.add("peer-crl-file", "", "Path to the peer certificate revocation list file.");
            c.add("cipher-suites", "",
                    "Comma-separated list of supported TLS cipher suites between client/server and peers (empty will be auto-populated by "
                    + "Go).");
            c.add("cors", "*",
                    "Comma-separated whitelist of origins for CORS, or cross-origin resource sharing, (empty or * means allow all).");
            c.add("host-whitelist", "*",
                    "Acceptable hostnames from HTTP client requests, if server is not secure (empty or * means allow all).");
            c.add("tls-min-version", "TLS1.2", "Minimum TLS version supported by etcd. Possible values: TLS1.2, TLS1.3.");
            c.add("tls-max-version", "",
                    "Maximum TLS version supported by etcd. Possible values: TLS1.2, TLS1.3 (empty will be auto-populated by Go).");
            c.add("peer-skip-client-san-verification", "false", Kind.BOOL,
                    "Skip verification of SAN field in client certificate for peer connections.");

            c.group("Auth");
            c.add("auth-token", "simple",
                    "Specify a v3 authentication token type and token specific options, especially for JWT. Its format is "
                    + "\"type,var1=val1,var2=val2,...\". Possible type is 'simple' or 'jwt'. Possible variables are 'sign-method' for "
                    + "specifying a sign method of jwt (its possible values are 'ES256', 'ES384', 'ES512', 'HS256', 'HS384', 'HS512', "
                    + "'RS256', 'RS384', 'RS512', 'PS256', 'PS384', or 'PS512'), 'pub-key' for specifying a path to a public key for "
                    + "verifying jwt, 'priv-key' for specifying a path to a private key for signing jwt, and 'ttl' for specifying TTL of "
                    + "jwt tokens.");
            c.add("bcrypt-cost", "10", Kind.UINT, "Specify bcrypt algorithm cost factor for auth password hashing.");
            c.add("auth-token-ttl", "300", Kind.UINT, "The lifetime in seconds of the auth token.");

            c.group("Profiling and Monitoring");
            c.add("enable-pprof", "false", Kind.BOOL,
                    "Enable runtime profiling data via HTTP server. Address is at client URL + \"/debug/pprof/\"");
            c.add("metrics", "basic",
                    "Set level of detail for exported metrics, specify 'extensive' to include server side grpc histogram metrics.");
            c.add("listen-metrics-urls", "",
                    "List of URLs to listen on for the /metrics and /health endpoints. For https, the client URL TLS info is used.");

            c.group("Logging");
            c.add("logger", "zap", "Currently only supports 'zap' for structured logging.");
            c.add("log-outputs", "default",
                    "Specify 'stdout' or 'stderr' to skip journald logging even when running under systemd, or list of comma separated "
                    + "output targets.");
            c.add("log-level", "info", "Configures log level. Only supports debug, info, warn, error, panic, or fatal.");
            c.add("log-format", "json", "Configures log format. Only supports json, console.");
            c.add("enable-log-rotation", "false", Kind.BOOL, "Enable log rotation of a single log-outputs file target.");
            c.add("log-rotation-config-json",
                    "{\"maxsize\": 100, \"maxage\": 0, \"maxbackups\": 0, \"localtime\": false, \"compress\": false}",
                    "Configures log rotation if enabled with a JSON logger config. MaxSize(MB), MaxAge(days,0=no limit), MaxBackups(0=no "
                            + "limit), LocalTime(use computers local time), Compress(gzip)");
            c.add("warning-unary-request-duration", "300ms", Kind.DURATION,
                    "Time duration after which a warning is generated if a unary request takes more than this duration.");

            c.group("Experimental distributed tracing");
            String tracing = "distributed tracing is not implemented";
            c.notYet("enable-distributed-tracing", "false", Kind.BOOL, "Enable distributed tracing.", tracing);
            // as in etcd, the settings below are read only when tracing is enabled: accepted, and unused
            c.add("distributed-tracing-address", "localhost:4317", Kind.STRING, "Distributed tracing collector address.");
            c.add("distributed-tracing-service-name", "etcd", Kind.STRING,
                    "Distributed tracing service name, must be same across all etcd instances.");
            c.add("distributed-tracing-instance-id", "", Kind.STRING,
                    "Distributed tracing instance ID, must be unique per each etcd instance.");
            c.add("distributed-tracing-sampling-rate", "0", Kind.INT,
                    "Number of samples to collect per million spans for distributed tracing. Disabled by default.");

            c.group("Features");
            c.add("corrupt-check-time", "0s", Kind.DURATION, "Duration of time between cluster corruption check passes.");
            c.add("compact-hash-check-time", "1m0s", Kind.DURATION, "Duration of time between leader checks followers compaction hashes.");
            c.add("compaction-batch-limit", "1000", Kind.INT, "Sets the maximum revisions deleted in each compaction batch.");
            c.add("compaction-sleep-interval", "10ms", Kind.DURATION, "Sets the sleep interval between each compaction batch.");
            c.add("watch-progress-notify-interval", "10m0s", Kind.DURATION, "Duration of periodical watch progress notification.");
            c.add("warning-apply-duration", "100ms", Kind.DURATION,
                    "Time duration after which a warning is generated if watch progress takes more time.");
            c.add("bootstrap-defrag-threshold-megabytes", "0", Kind.UINT,
                    "Enable the defrag during etcd server bootstrap on condition that it will free at least the provided threshold of disk "
                    + "space. Needs to be set to non-zero value to take effect.");
            c.add("snapshot-catchup-entries", "5000", Kind.UINT,
                    "Number of entries for a slow follower to catch up after compacting the raft storage entries.");
            c.add("downgrade-check-time", "5s", Kind.DURATION, "Duration of time between two downgrade status checks.");

            c.group("Experimental feature (deprecated in v3.6, use the flag named or --feature-gates)");
            c.gate("experimental-initial-corrupt-check", "false", "Enable to check data corruption before serving any client/peer traffic.",
                    "InitialCorruptCheck");
            c.renamed("experimental-corrupt-check-time", "corrupt-check-time");
            c.gate("experimental-compact-hash-check-enabled", "false", "Enable leader to periodically check followers compaction hashes.",
                    "CompactHashCheck");
            c.renamed("experimental-compact-hash-check-time", "compact-hash-check-time");
            c.gate("experimental-enable-lease-checkpoint", "true",
                    "ExperimentalEnableLeaseCheckpoint enables leader to send regular checkpoints to other members to prevent reset of "
                    + "remaining TTL on leader change.", "LeaseCheckpoint");
            c.gate("experimental-enable-lease-checkpoint-persist", "true",
                    "Enable persisting remainingTTL to prevent indefinite auto-renewal of long lived leases. Always enabled in v3.6. "
                    + "Should be used to ensure smooth upgrade from v3.5 clusters with this feature enabled. Requires "
                    + "experimental-enable-lease-checkpoint to be enabled.", "LeaseCheckpointPersist");
            c.renamed("experimental-compaction-batch-limit", "compaction-batch-limit");
            c.renamed("experimental-compaction-sleep-interval", "compaction-sleep-interval");
            c.renamed("experimental-peer-skip-client-san-verification", "peer-skip-client-san-verification");
            c.renamed("experimental-watch-progress-notify-interval", "watch-progress-notify-interval");
            c.renamed("experimental-downgrade-check-time", "downgrade-check-time");
            c.renamed("experimental-memory-mlock", "memory-mlock");
            c.renamed("experimental-warning-apply-duration", "warning-apply-duration");
            c.gate("experimental-txn-mode-write-with-shared-buffer", "true",
                    "Enable the write transaction to use a shared buffer in its readonly check operations.",
                    "TxnModeWriteWithSharedBuffer");
            c.renamed("experimental-bootstrap-defrag-threshold-megabytes", "bootstrap-defrag-threshold-megabytes");
            c.renamed("experimental-warning-unary-request-duration", "warning-unary-request-duration");
            c.renamed("experimental-max-learners", "max-learners");
            c.renamed("experimental-snapshot-catchup-entries", "snapshot-catchup-entries");
            c.gate("experimental-stop-grpc-service-on-defrag", "false",
                    "Enable etcd gRPC service to stop serving client requests on defragmentation.", "StopGRPCServiceOnDefrag");
            c.renamed("experimental-enable-distributed-tracing", "enable-distributed-tracing");
            c.renamed("experimental-distributed-tracing-address", "distributed-tracing-address");
            c.renamed("experimental-distributed-tracing-service-name", "distributed-tracing-service-name");
            c.renamed("experimental-distributed-tracing-instance-id", "distributed-tracing-instance-id");
            c.renamed("experimental-distributed-tracing-sampling-rate", "distributed-tracing-sampling-rate");

            c.group("Unsafe feature");
            c.add("force-new-cluster", "false", Kind.BOOL, "Force to create a new one-member cluster.");
            c.add("unsafe-no-fsync", "false", Kind.BOOL, "Disables fsync, unsafe, will cause data loss.");
            return List.copyOf(c.flags);
        }

        private void group(String g) {
            group = g;
        }

        private void add(String name, String def, String usage) {
            add(name, def, Kind.STRING, usage);
        }

        private void add(String name, String def, Kind kind, String usage) {
            flags.add(new Flag(group, name, def, usage, kind, null, null));
        }

        private void notYet(String name, String def, Kind kind, String usage, String why) {
            flags.add(new Flag(group, name, def, usage, kind, null, why));
        }

        /** A deprecated spelling: same default, kind and support as the flag it stands for. */
        private void renamed(String name, String target) {
            Flag t = flags.stream().filter(f -> f.name.equals(target)).findFirst().orElseThrow();
            flags.add(new Flag(group, name, t.defaultValue, t.usage + " Deprecated in v3.6 and will be decommissioned in v3.7. Use '--"
                    + target + "' instead.", t.kind, target, t.notYet));
        }

        /** A deprecated spelling of a feature gate. */
        private void gate(String name, String def, String usage, String gate) {
            flags.add(new Flag(group, name, def, usage + " Deprecated in v3.6 and will be decommissioned in v3.7. Use '--feature-gates="
                    + gate + "=true' instead.", Kind.BOOL, "feature-gates:" + gate, FeatureGates.notYet(gate)));
        }
    }
}
