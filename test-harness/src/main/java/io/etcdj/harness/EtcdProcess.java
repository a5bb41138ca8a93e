package io.etcdj.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An etcd member as an operating-system process: ours or the real etcd binary (see {@link ServerCommand}).
 * Ports are picked once and kept across restarts, so clients can reconnect to the same endpoint after
 * {@link #kill9()} or {@link #stop()} and {@link #start()}. Its data dir and log live in a temp dir of its
 * own (or under a directory the test names), which {@link #close()} deletes.
 */
public final class EtcdProcess implements EtcdMember {
    /** The installed reference server (etcd 3.4). */
    public static final Path REAL_ETCD = ServerCommand.REAL_ETCD;
    private static final String READY = "ready to serve client requests";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = LoggedProcess.STOP_TIMEOUT;

    /** Which server binary runs. */
    public enum Binary {
        OURS, REAL_ETCD;

        /** The command that runs it. */
        public ServerCommand command() {
            return this == OURS ? ServerCommand.ours() : ServerCommand.realEtcd();
        }
    }

    private final ServerCommand binary;
    private final List<String> extraFlags;
    private final Path home;
    private final boolean ownsHome;
    private final Path dataDir;
    private final Path logFile;
    private final int clientPort;
    private final int peerPort;
    private final String name;
    /** --initial-cluster and --initial-cluster-state; null for a one-member cluster of its own. */
    private String initialCluster;
    private String clusterState = "new";
    private LoggedProcess process;
    /** ETCD_* variables for the next launches. */
    private Map<String, String> environment = Map.of();
    /** Extra JVM options for our server (e.g. failpoints); ignored for etcd 3.4. */
    private List<String> jvmOptions = List.of();
    /** Peers talk over a unix socket named localhost:port in the working directory (etcd's unix URLs). */
    private boolean unixPeer;
    /** The process's working directory (unix socket files are relative to it); null: the test's. */
    private Path workingDir;
    /** Client URLs served besides the TCP one (e.g. a unix socket), for the next launches. */
    private String extraClientUrls = "";
    /** http, or https when the test gives the server's certificate flags. */
    private String clientScheme = "http";

    private EtcdProcess(ServerCommand binary, String name, Path dir, List<String> extraFlags) {
        this.binary = binary;
        this.name = name;
        this.clientPort = FreePorts.pick();
        this.peerPort = FreePorts.pick();
        this.extraFlags = List.copyOf(extraFlags);
        this.ownsHome = dir == null;
        this.home = dir != null ? dir : TempDirs.create("etcd-it-");
        this.dataDir = dir != null ? dir.resolve(name + ".etcd") : home.resolve("data");
        this.logFile = dir != null ? dir.resolve(name + ".log") : home.resolve("etcd.log");
    }

    /** Our server, with extra etcd flags such as {@code --max-txn-ops=4}. */
    public static EtcdProcess ours(String... extraFlags) {
        return new EtcdProcess(ServerCommand.ours(), "it", null, List.of(extraFlags));
    }

    /** The real etcd, with the same flag syntax. */
    public static EtcdProcess realEtcd(String... extraFlags) {
        return new EtcdProcess(ServerCommand.realEtcd(), "it", null, List.of(extraFlags));
    }

    /**
     * A member named {@code name} run by {@code binary}, its data dir {@code NAME.etcd} and log
     * {@code NAME.log} in {@code dir} (which the caller deletes; null: a temp dir of its own).
     */
    public static EtcdProcess of(ServerCommand binary, String name, Path dir, String... extraFlags) {
        return new EtcdProcess(binary, name, dir, List.of(extraFlags));
    }

    /** A member of a multi-member cluster; {@link ProcessCluster} sets its initial cluster. */
    public static EtcdProcess clusterMember(ServerCommand binary, String name, List<String> extraFlags) {
        return new EtcdProcess(binary, name, null, extraFlags);
    }

    /** Sets environment variables (such as ETCD_* settings) for the next launches. */
    public void environment(Map<String, String> env) {
        this.environment = Map.copyOf(env);
    }

    /** Sets --initial-cluster and --initial-cluster-state (new or existing) for the next start. */
    public void joinAs(String initialCluster, String state) {
        this.initialCluster = initialCluster;
        this.clusterState = state;
    }

    public String name() {
        return name;
    }

    /** The peer port, fixed for the process's lifetime (DNS SRV records in tests point at it). */
    public int peerPort() {
        return peerPort;
    }

    /** A free port picked for this member, e.g. to name an extra listener's socket. */
    public int clientPort() {
        return clientPort;
    }

    /** JVM options for the next launches of our server, such as {@code -Detcdj.failpoints=...}. */
    public void jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
    }

    public String peerUrl() {
        return unixPeer ? "unix://localhost:" + peerPort : "http://127.0.0.1:" + peerPort;
    }

    /** Listens for and dials peers on unix sockets; every member of the cluster needs the same working directory. */
    public void unixPeer(Path sharedWorkingDir) {
        this.unixPeer = true;
        this.workingDir = sharedWorkingDir;
    }

    /** Serves {@code clientUrl} too (e.g. a unix socket) from the next launch on. */
    public void alsoListenOn(String clientUrl) {
        extraClientUrls += "," + clientUrl;
    }

    /**
     * Serves clients over {@code https} (the test gives the certificate flags). {@link #start()} checks the
     * leader over plain HTTP: a TLS member is started with {@link #startUntilReadyLine()} and the test's own check.
     */
    public void clientScheme(String scheme) {
        this.clientScheme = scheme;
    }

    @Override
    public String clientUrl() {
        return clientScheme + "://" + endpoint();
    }

    /** Runs the process in {@code dir}. */
    public void workingDir(Path dir) {
        this.workingDir = dir;
    }

    /** This member's home directory (deleted on close when the member made it). */
    public Path home() {
        return home;
    }

    @Override
    public String endpoint() {
        return "127.0.0.1:" + clientPort;
    }

    @Override
    public Path dataDir() {
        return dataDir;
    }

    @Override
    public String describe() {
        return binary.label() + " at " + endpoint() + (process != null ? " (pid " + process.pid() + ")" : "");
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Starts and returns once the member logged that it serves clients and reports a leader. The second
     * condition keeps tests independent of how soon after the log line a member can serve linearizable
     * requests; {@link #startUntilReadyLine()} checks that on its own.
     */
    @Override
    public synchronized void start() throws IOException, InterruptedException {
        startUntilReadyLine();
        awaitLeader();
    }

    /** Starts and returns as soon as the member logged "ready to serve client requests" (ours) or listens (etcd 3.4). */
    public synchronized void startUntilReadyLine() throws IOException, InterruptedException {
        launch();
        awaitReady();
    }

    /**
     * Starts the process without waiting. Members of a new multi-member cluster are launched
     * together: none is ready before a quorum runs.
     */
    public synchronized void launch() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(describe() + " is already running");
        }
        process = LoggedProcess.start(binary.label() + " " + name, command(), logFile, workingDir, environment);
    }

    /** Waits for a launched member to serve clients and see a leader. */
    public synchronized void awaitStarted() throws IOException, InterruptedException {
        awaitReady();
        awaitLeader();
    }

    /** The process's pid while it runs. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    private List<String> command() {
        String peerUrl = peerUrl();
        List<String> cmd = new ArrayList<>(binary.prefix(jvmOptions));
        if (binary.isRealEtcd()) {
            cmd.addAll(List.of("--logger=zap", "--log-outputs=stderr"));
        }
        List<String> defaults = new ArrayList<>(List.of("--name=" + name, "--data-dir=" + dataDir,
                "--listen-client-urls=" + clientUrl() + extraClientUrls, "--advertise-client-urls=" + clientUrl(),
                "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster-state=" + clusterState));
        // a member bootstrapping by discovery (--discovery, --discovery-srv) must not also get an --initial-cluster
        if (extraFlags.stream().noneMatch(f -> f.matches("--discovery(-srv|-endpoints)?=.+"))) {
            defaults.add("--initial-cluster=" + (initialCluster != null ? initialCluster : name + "=" + peerUrl));
        }
        // a flag the test gives replaces the default one (etcd would refuse neither, but one is clearer)
        Set<String> given = new HashSet<>();
        extraFlags.forEach(f -> given.add(f.split("=", 2)[0]));
        defaults.stream().filter(f -> !given.contains(f.split("=", 2)[0])).forEach(cmd::add);
        cmd.addAll(extraFlags);
        return cmd;
    }

    private void awaitReady() throws InterruptedException {
        // etcd 3.4 prints the ready line only with its old logger; with zap the open port plus the
        // leader check in start() decide
        try {
            process.awaitLogLineAndPort(binary.isRealEtcd() ? null : READY, clientPort, START_TIMEOUT);
        } catch (AssertionError e) {
            kill9();
            throw new IllegalStateException(describe() + " did not start: " + e.getMessage() + "; log:\n" + logTail(), e);
        }
    }

    private void awaitLeader() throws InterruptedException {
        String problem = LeaderProbe.await(clientUrl(), START_TIMEOUT.toMillis(), () -> process.isAlive());
        if (problem != null) {
            throw new IllegalStateException(describe() + " reports no leader (" + problem + "); log:\n" + logTail());
        }
    }

    /** SIGTERM, then SIGKILL if the process has not exited in time. */
    @Override
    public synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.stop(STOP_TIMEOUT);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed. */
    public synchronized void kill9() throws InterruptedException {
        if (process != null) {
            process.kill9();
        }
    }

    /** Exit code of the last run, or -1 while it runs. */
    public int exitCode() {
        return process == null ? -1 : process.exitCode();
    }

    @Override
    public String logTail() {
        return LoggedProcess.tail(logFile, 60);
    }

    /** Everything logged since the last launch. */
    public String logSinceLaunch() {
        return process == null ? "" : process.logSinceStart();
    }

    @Override
    public synchronized void close() {
        try {
            if (process != null) {
                process.close();
            }
        } finally {
            if (ownsHome) {
                TempDirs.delete(home);
            }
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
