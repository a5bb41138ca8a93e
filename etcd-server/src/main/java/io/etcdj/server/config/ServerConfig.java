package io.etcdj.server.config;

import io.etcdj.server.log.Log;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A member's settings, typed and validated, with etcd's defaults. */
public record ServerConfig(
        String name,
        Path dataDir,
        Path walDir,
        List<URI> listenClientUrls,
        List<URI> advertiseClientUrls,
        List<URI> listenPeerUrls,
        List<URI> initialAdvertisePeerUrls,
        Map<String, List<URI>> initialCluster,
        boolean initialClusterStateNew,
        String initialClusterToken,
        long quotaBackendBytes,
        int maxRequestBytes,
        int maxTxnOps,
        String autoCompactionMode,
        String autoCompactionRetention,
        long snapshotCount,
        int maxSnapshots,
        int maxWals,
        long heartbeatMillis,
        long electionMillis,
        boolean strictReconfigCheck,
        boolean preVote,
        boolean forceNewCluster,
        boolean unsafeNoFsync,
        String logLevel,
        List<String> logOutputs,
        /** --log-format: true for zap's console encoder, false for JSON lines. */
        boolean logConsole,
        Duration watchProgressNotifyInterval,
        long snapshotCatchupEntries,
        TransportSecurity clientSecurity,
        TransportSecurity peerSecurity,
        TlsOptions tlsOptions,
        MemberOptions options,
        /** How the cluster is found when --initial-cluster does not say; {@link #initialCluster} is empty then. */
        DiscoveryOptions discovery) {

    /** etcd's default space quota: 2 GiB. */
    public static final long DEFAULT_QUOTA = 2L << 30;
    /** etcd's hard cap on the quota. */
    public static final long MAX_QUOTA = 8L << 30;

    /**
     * The client side's allowed-cn, which only the config file sets (client-transport-security's
     * allowed-cn; etcd has no flag for it): the CNs a client certificate may carry.
     */
    static final String CLIENT_ALLOWED_CN = "client-transport-security.allowed-cn";

    public Path memberDir() {
        return dataDir.resolve("member");
    }

    public Path walPath() {
        return walDir != null ? walDir : memberDir().resolve("wal");
    }

    public Path snapDir() {
        return memberDir().resolve("snap");
    }

    public Path backendFile() {
        return snapDir().resolve("db");
    }

    /** --bcrypt-cost. */
    public int bcryptCost() {
        return options.auth().bcryptCost();
    }

    /** This config with the cluster that discovery found (see {@link DiscoveryOptions}). */
    public ServerConfig withInitialCluster(Map<String, List<URI>> cluster) {
        return new ServerConfig(name, dataDir, walDir, listenClientUrls, advertiseClientUrls, listenPeerUrls,
                initialAdvertisePeerUrls, cluster, initialClusterStateNew, initialClusterToken, quotaBackendBytes,
                maxRequestBytes, maxTxnOps, autoCompactionMode, autoCompactionRetention, snapshotCount, maxSnapshots, maxWals,
                heartbeatMillis, electionMillis, strictReconfigCheck, preVote, forceNewCluster, unsafeNoFsync, logLevel,
                logOutputs, logConsole, watchProgressNotifyInterval, snapshotCatchupEntries, clientSecurity, peerSecurity,
                tlsOptions, options, DiscoveryOptions.NONE);
    }

    public long electionTicks() {
        return Math.max(1, electionMillis / heartbeatMillis);
    }

    /** Builds the config from parsed flag values (missing ones take etcd's defaults). */
    public static ServerConfig from(Map<String, String> v) throws ConfigException {
        Map<String, String> all = new LinkedHashMap<>();
        for (Flag f : Flag.ALL) {
            all.put(f.name(), f.defaultValue());
        }
        FlagResolver resolver = new FlagResolver(v);
        all.putAll(resolver.resolve());
        String name = all.get("name");
        String dataDir = all.get("data-dir").replace("${name}", name);
        String walDir = all.get("wal-dir");
        long heartbeat = positiveLong(all, "heartbeat-interval");
        long election = positiveLong(all, "election-timeout");
        if (5 * heartbeat > election) {
            throw new ConfigException("--election-timeout[" + election + "ms] should be at least as 5 times as --heartbeat-interval["
                    + heartbeat + "ms]");
        }
        if (election > 50000) {
            throw new ConfigException("--election-timeout[" + election + "ms] is too long, and should be set less than 50000ms");
        }
        String state = all.get("initial-cluster-state");
        if (!state.equals("new") && !state.equals("existing")) {
            throw new ConfigException("invalid value \"" + state + "\" for flag -initial-cluster-state: invalid value \"" + state + "\"", 2,
                    true);
        }
        long quota = longValue(all, "quota-backend-bytes");
        if (quota < 0) {
            throw new ConfigException("invalid value \"" + quota + "\" for flag -quota-backend-bytes");
        }
        if (quota == 0) {
            quota = DEFAULT_QUOTA;
        } else if (quota > MAX_QUOTA) {
            quota = MAX_QUOTA;
        }
        String mode = all.get("auto-compaction-mode");
        if (!mode.equals("periodic") && !mode.equals("revision")) {
            throw new ConfigException("unknown auto-compaction-mode " + mode);
        }
        if (!all.get("logger").equals("zap")) {
            throw new ConfigException("unknown logger option \"" + all.get("logger") + "\"");
        }
        List<String> outputs = List.of(all.get("log-outputs").split(","));
        String level = all.get("log-level");
        if (!Log.validLevel(level)) {
            throw new ConfigException("unknown log-level: \"" + level + "\"");
        }
        return new ServerConfig(
                name,
                Path.of(dataDir),
                walDir.isEmpty() ? null : Path.of(walDir),
                urls(all, "listen-client-urls"),
                urls(all, "advertise-client-urls"),
                urls(all, "listen-peer-urls"),
                urls(all, "initial-advertise-peer-urls"),
                bootstrapCluster(all),
                state.equals("new"),
                clusterToken(all),
                quota,
                (int) positiveLong(all, "max-request-bytes"),
                (int) positiveLong(all, "max-txn-ops"),
                mode,
                all.get("auto-compaction-retention"),
                longValue(all, "snapshot-count"),
                (int) longValue(all, "max-snapshots"),
                (int) longValue(all, "max-wals"),
                heartbeat,
                election,
                bool(all, "strict-reconfig-check"),
                bool(all, "pre-vote"),
                bool(all, "force-new-cluster"),
                bool(all, "unsafe-no-fsync"),
                level,
                outputs,
                all.get("log-format").trim().equals("console"),
                Durations.parse(all.get("watch-progress-notify-interval"), "watch-progress-notify-interval"),
                positiveLong(all, "snapshot-catchup-entries"),
                security(all, ""),
                security(all, "peer-"),
                TlsOptions.parse(all.get("cipher-suites"), all.get("tls-min-version"), all.get("tls-max-version"),
                        (int) positiveLong(all, "self-signed-cert-validity")),
                options(all, resolver),
                discovery(all));
    }

    private static MemberOptions options(Map<String, String> all, FlagResolver resolver) throws ConfigException {
        // as etcd, any value but "extensive" is the basic set (etcd 3.4 starts with --metrics=foo)
        String metrics = all.get("metrics").trim();
        String format = all.get("log-format").trim();
        if (!format.equals("json") && !format.equals("console")) {
            throw new ConfigException("unsupported log format: " + format + ", supported formats are: [json console]");
        }
        String v2 = all.get("v2-deprecation").trim();
        switch (v2) {
            case "write-only", "write-only-drop-data", "gone" -> {
                // This server never had a v2 store: every phase from write-only on holds.
            }
            case "not-yet" -> throw new ConfigException("--v2-deprecation=not-yet is not supported: this server has no v2 store");
            default -> throw new ConfigException("invalid value \"" + v2 + "\" for flag -v2-deprecation: invalid value \""
                    + v2 + "\"", 2, true);
        }
        long maxLearners = longValue(all, "max-learners");
        if (maxLearners < 1) {
            throw new ConfigException("--max-learners must be greater than 0, got " + maxLearners);
        }
        String metricsUrls = all.get("listen-metrics-urls").trim();
        return new MemberOptions(
                metricsUrls.isEmpty() ? List.of() : urls(all, "listen-metrics-urls"),
                metrics.equals("extensive"),
                resolver.gate("InitialCorruptCheck"),
                (int) Math.min(Integer.MAX_VALUE, maxLearners),
                Long.parseUnsignedLong(all.get("max-concurrent-streams").trim()),
                bool(all, "enable-grpc-gateway"),
                Durations.parse(all.get("grpc-keepalive-min-time"), "grpc-keepalive-min-time"),
                Durations.parse(all.get("grpc-keepalive-interval"), "grpc-keepalive-interval"),
                Durations.parse(all.get("grpc-keepalive-timeout"), "grpc-keepalive-timeout"),
                bool(all, "socket-reuse-port"),
                bool(all, "socket-reuse-address"),
                Durations.parse(all.get("corrupt-check-time"), "corrupt-check-time"),
                AuthOptions.parse(all.get("auth-token"), longValue(all, "bcrypt-cost"), longValue(all, "auth-token-ttl")),
                watchdog(all, resolver),
                new ClientHttpOptions(all.get("listen-client-http-urls").isBlank() ? List.of() : urls(all, "listen-client-http-urls"),
                        CertChecks.list(all.get("cors")), CertChecks.list(all.get("host-whitelist"))),
                bool(all, "enable-pprof"),
                Long.parseUnsignedLong(all.get("bootstrap-defrag-threshold-megabytes").trim()),
                bool(all, "enable-log-rotation")
                        ? LogRotation.parse(List.of(all.get("log-outputs").split(",")), all.get("log-rotation-config-json")) : null,
                BackendBatch.of(Durations.parse(all.get("backend-batch-interval"), "backend-batch-interval"),
                        longValue(all, "backend-batch-limit")),
                storeTuning(all, resolver),
                tuning(all, resolver),
                List.copyOf(resolver.warnings()));
    }

    private static StoreTuning storeTuning(Map<String, String> all, FlagResolver resolver) throws ConfigException {
        boolean checkpoint = resolver.gate("LeaseCheckpoint");
        // Persisting is on by default only with checkpoints: turning checkpoints off turns it off too.
        boolean persist = resolver.gateGiven("LeaseCheckpointPersist") ? resolver.gate("LeaseCheckpointPersist") : checkpoint;
        if (checkpoint && !persist) {
            resolver.warnings().add("Detected that checkpointing is enabled without persistence. Consider enabling feature gate "
                    + "LeaseCheckpointPersist");
        }
        return StoreTuning.of(checkpoint, persist, StoreTuning.checkpointIntervalOverride(),
                longValue(all, "compaction-batch-limit"),
                Durations.parse(all.get("compaction-sleep-interval"), "compaction-sleep-interval"));
    }

    private static MemberTuning tuning(Map<String, String> all, FlagResolver resolver) throws ConfigException {
        return new MemberTuning(
                Durations.parse(all.get("raft-read-timeout"), "raft-read-timeout"),
                Durations.parse(all.get("raft-write-timeout"), "raft-write-timeout"),
                bool(all, "memory-mlock"),
                all.get("backend-bbolt-freelist-type").trim().equals("array"),
                bool(all, "initial-election-tick-advance"),
                Durations.parse(all.get("downgrade-check-time"), "downgrade-check-time"),
                bool(all, "peer-skip-client-san-verification"),
                resolver.gate("SetMemberLocalAddr"),
                resolver.gate("StopGRPCServiceOnDefrag"),
                resolver.gate("TxnModeWriteWithSharedBuffer"),
                bool(all, "auto-promote-learners"));
    }

    private static WatchdogOptions watchdog(Map<String, String> all, FlagResolver resolver) throws ConfigException {
        Duration compactHashCheckTime = Durations.parse(all.get("compact-hash-check-time"), "compact-hash-check-time");
        if (compactHashCheckTime.isZero() || compactHashCheckTime.isNegative()) {
            throw new ConfigException("--compact-hash-check-time must be >0 (set to " + all.get("compact-hash-check-time").trim() + ")");
        }
        return new WatchdogOptions(resolver.gate("CompactHashCheck"), compactHashCheckTime,
                Durations.parse(all.get("warning-unary-request-duration"), "warning-unary-request-duration"),
                Durations.parse(all.get("warning-apply-duration"), "warning-apply-duration"));
    }

    /** The client side's flags (prefix "") or the peer side's ("peer-"). */
    private static TransportSecurity security(Map<String, String> all, String prefix) {
        return new TransportSecurity(
                TransportSecurity.path(all.get(prefix + "cert-file")),
                TransportSecurity.path(all.get(prefix + "key-file")),
                TransportSecurity.path(all.get(prefix + "trusted-ca-file")),
                bool(all, prefix + "client-cert-auth"),
                bool(all, prefix + "auto-tls"),
                prefix.isEmpty()
                        ? new CertChecks(TransportSecurity.path(all.get("client-crl-file")),
                                CertChecks.list(all.get(CLIENT_ALLOWED_CN)),
                                CertChecks.list(all.get("client-cert-allowed-hostname")))
                        : new CertChecks(TransportSecurity.path(all.get("peer-crl-file")),
                                CertChecks.list(all.get("peer-cert-allowed-cn")),
                                CertChecks.list(all.get("peer-cert-allowed-hostname"))),
                TransportSecurity.path(all.get(prefix.isEmpty() ? "client-cert-file" : "peer-client-cert-file")),
                TransportSecurity.path(all.get(prefix.isEmpty() ? "client-key-file" : "peer-client-key-file")));
    }

    private static long longValue(Map<String, String> all, String flag) throws ConfigException {
        String s = all.get(flag).trim();
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": parse error", 2, true);
        }
    }

    private static long positiveLong(Map<String, String> all, String flag) throws ConfigException {
        long v = longValue(all, flag);
        if (v <= 0) {
            throw new ConfigException("invalid value \"" + v + "\" for flag -" + flag + ": must be positive", 2, true);
        }
        return v;
    }

    private static boolean bool(Map<String, String> all, String flag) {
        String s = all.get(flag);
        return s.equalsIgnoreCase("true") || s.equals("1") || s.equalsIgnoreCase("t");
    }

    static List<URI> urls(Map<String, String> all, String flag) throws ConfigException {
        List<URI> out = new ArrayList<>();
        for (String s : all.get(flag).split(",")) {
            out.add(url(s.trim(), flag));
        }
        return out;
    }

    private static URI url(String s, String flag) throws ConfigException {
        URI u;
        try {
            u = new URI(s);
        } catch (Exception e) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": parse " + s + ": invalid URL", 2, true);
        }
        if (!List.of("http", "https", "unix", "unixs").contains(u.getScheme())) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag
                    + ": URL scheme must be http, https, unix, or unixs: " + s, 2, true);
        }
        if (u.getHost() == null || u.getPort() < 0) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": URL address does not have the form "
                    + "\"host:port\": " + s, 2, true);
        }
        return u;
    }

    /**
     * --initial-cluster, or none when discovery is to find the cluster (the discovery flags checked
     * first; an explicit --initial-cluster beside discovery conflicts, as in etcd).
     */
    private static Map<String, List<URI>> bootstrapCluster(Map<String, String> all) throws ConfigException {
        DiscoveryFlags.validate(all);
        return discovery(all).any() ? Map.of() : initialCluster(all.get("initial-cluster"));
    }

    private static DiscoveryOptions discovery(Map<String, String> all) throws ConfigException {
        return new DiscoveryOptions(all.get("discovery-srv"), all.getOrDefault("discovery-srv-name", ""), all.get("discovery"),
                all.get("discovery-proxy"), DiscoveryFlags.v3(all) ? DiscoveryFlags.v3Settings(all) : null);
    }

    /**
     * The token member and cluster IDs are computed with: the discovery URL (v2 discovery), the
     * discovery token (v3 discovery) or --initial-cluster-token, as etcd's PeerURLsMapAndToken.
     */
    private static String clusterToken(Map<String, String> all) throws ConfigException {
        if (!all.get("discovery").isEmpty()) {
            return all.get("discovery");
        }
        if (DiscoveryFlags.v3(all)) {
            return all.get("discovery-token");
        }
        return all.get("initial-cluster-token");
    }

    /** The cluster of an --initial-cluster value (name=peer URL, ...), its URLs checked. */
    public static Map<String, List<URI>> initialCluster(String s) throws ConfigException {
        Map<String, List<URI>> out = new LinkedHashMap<>();
        for (String part : s.split(",")) {
            part = part.trim();
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("couldn't parse initial cluster: " + part);
            }
            String name = part.substring(0, eq);
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(url(part.substring(eq + 1), "initial-cluster"));
        }
        return out;
    }
}
