package io.etcdj.server.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An etcd member as an operating-system process: ours (a JVM on the module's classes and runtime jars)
 * or the real etcd binary. Ports are picked once and kept across restarts, so clients can reconnect to
 * the same endpoint after {@link #kill9()} or {@link #stop()} and {@link #start()}.
 */
public final class EtcdProcess implements EtcdMember {
    /** The installed reference server (etcd 3.4). */
    static final Path REAL_ETCD = Path.of("/usr/bin/etcd");
    private static final String READY = "ready to serve client requests";
    private static final long START_TIMEOUT_MS = 60_000;
    private static final long STOP_TIMEOUT_MS = 20_000;

    /** Which server binary runs. */
    public enum Binary {
        OURS("ours"), REAL_ETCD("etcd 3.4");

        private final String label;

        Binary(String label) {
            this.label = label;
        }
    }

    private final Binary binary;
    private final List<String> extraFlags;
    private final Path home = TempDirs.create("etcd-it-");
    private final Path dataDir = home.resolve("data");
    private final Path logFile = home.resolve("etcd.log");
    private final int clientPort;
    private final int peerPort;
    private final String name;
    /** --initial-cluster and --initial-cluster-state; null for a one-member cluster of its own. */
    private String initialCluster;
    private String clusterState = "new";
    private Process process;
    private long launchLogOffset;
    /** ETCD_* variables for the next launches. */
    private java.util.Map<String, String> environment = java.util.Map.of();

    /** Sets environment variables (such as ETCD_* settings) for the next launches. */
    public void environment(java.util.Map<String, String> env) {
        this.environment = java.util.Map.copyOf(env);
    }

    /** The peer port, fixed for the process's lifetime (DNS SRV records in tests point at it). */
    int peerPort() {
        return peerPort;
    }

    /** Extra JVM options for our server (e.g. failpoints); ignored for etcd 3.4. */
    private List<String> jvmOptions = List.of();

    private EtcdProcess(Binary binary, List<String> extraFlags) {
        this(binary, "it", FreePorts.pick(), FreePorts.pick(), extraFlags);
    }

    private EtcdProcess(Binary binary, String name, int clientPort, int peerPort, List<String> extraFlags) {
        this.binary = binary;
        this.name = name;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.extraFlags = List.copyOf(extraFlags);
    }

    /** A member of a multi-member cluster; {@link ProcessCluster} sets its initial cluster. */
    static EtcdProcess clusterMember(Binary binary, String name, List<String> extraFlags) {
        return new EtcdProcess(binary, name, FreePorts.pick(), FreePorts.pick(), extraFlags);
    }

    /** Sets --initial-cluster and --initial-cluster-state (new or existing) for the next start. */
    void joinAs(String initialCluster, String state) {
        this.initialCluster = initialCluster;
        this.clusterState = state;
    }

    public String name() {
        return name;
    }

    /** JVM options for the next launches of our server, such as {@code -Detcdj.failpoints=...}. */
    void jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
    }

    public String peerUrl() {
        return unixPeer ? "unix://localhost:" + peerPort : "http://127.0.0.1:" + peerPort;
    }

    /** Peers talk over a unix socket named localhost:port in the working directory (etcd's unix URLs). */
    private boolean unixPeer;
    /** The process's working directory (unix socket files are relative to it); null: the test's. */
    private Path workingDir;

    /** Listens for and dials peers on unix sockets; every member of the cluster needs the same working directory. */
    void unixPeer(Path sharedWorkingDir) {
        this.unixPeer = true;
        this.workingDir = sharedWorkingDir;
    }

    /** Client URLs served besides the TCP one (e.g. a unix socket), for the next launches. */
    private String extraClientUrls = "";

    void alsoListenOn(String clientUrl) {
        extraClientUrls += "," + clientUrl;
    }

    /** Runs the process in {@code dir}. */
    void workingDir(Path dir) {
        this.workingDir = dir;
    }

    /** This member's home directory (deleted on close). */
    Path home() {
        return home;
    }

    /** A free port picked for this member, e.g. to name an extra listener's socket. */
    int clientPort() {
        return clientPort;
    }

    /** Our server, with extra etcd flags such as {@code --max-txn-ops=4}. */
    public static EtcdProcess ours(String... extraFlags) {
        return new EtcdProcess(Binary.OURS, List.of(extraFlags));
    }

    /** The real etcd, with the same flag syntax. */
    public static EtcdProcess realEtcd(String... extraFlags) {
        return new EtcdProcess(Binary.REAL_ETCD, List.of(extraFlags));
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
        return binary.label + " at " + endpoint() + (process != null ? " (pid " + process.pid() + ")" : "");
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
        awaitReady(launchLogOffset);
    }

    /**
     * Starts the process without waiting. Members of a new multi-member cluster are launched
     * together: none is ready before a quorum runs.
     */
    public synchronized void launch() throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(describe() + " is already running");
        }
        launchLogOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
        ProcessBuilder pb = new ProcessBuilder(command())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        if (workingDir != null) {
            pb.directory(workingDir.toFile());
        }
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        pb.environment().putAll(environment);
        process = pb.start();
    }

    /** Waits for a launched member to serve clients and see a leader. */
    public synchronized void awaitStarted() throws IOException, InterruptedException {
        awaitReady(launchLogOffset);
        awaitLeader();
    }

    /** The process's pid while it runs. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    private List<String> command() {
        String peerUrl = peerUrl();
        List<String> cmd = new ArrayList<>();
        if (binary == Binary.OURS) {
            cmd.addAll(ourEtcdCommand(jvmOptions));
        } else {
            cmd.add(REAL_ETCD.toString());
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
        java.util.Set<String> given = new java.util.HashSet<>();
        extraFlags.forEach(f -> given.add(f.split("=", 2)[0]));
        defaults.stream().filter(f -> !given.contains(f.split("=", 2)[0])).forEach(cmd::add);
        cmd.addAll(extraFlags);
        return cmd;
    }

    /**
     * What bin/etcd runs, up to the etcd arguments: the module jar, its runtime jars, the LMDB opens
     * and the AppCDS archive recorded at package time (when present); plus a heap cap, the tests
     * share a small machine. Also used to run our etcd's subcommands (gateway, grpc-proxy).
     */
    static List<String> ourEtcdCommand(List<String> jvmOptions) {
        List<String> cmd = new ArrayList<>();
        Path target = Path.of(System.getProperty("user.dir"), "target");
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // as bin/run-module: JVM warnings (such as a stale CDS archive) must not reach stdout
        cmd.addAll(List.of("-Xlog:disable", "-Xlog:all=warning,cds=off,cds+dynamic=off:stderr"));
        cmd.addAll(List.of("-Xmx384m", "-XX:TieredStopAtLevel=1",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        Path archive = target.resolve("app.jsa");
        if (Files.exists(archive)) {
            cmd.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
        }
        cmd.addAll(List.of("-cp", serverJar(target) + java.io.File.pathSeparator + target.resolve("lib") + "/*",
                "io.etcdj.server.Main"));
        return cmd;
    }

    private static Path serverJar(Path target) {
        try (var files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("etcd-server-.*(?<!-tests)\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no server jar in " + target + "; run the package phase first"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady(long logOffset) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(describe() + " exited with " + process.exitValue()
                        + " before it was ready; log:\n" + logTail());
            }
            // etcd 3.4 prints the ready line only with its old logger; with zap the open port plus the
            // leader check in start() decide
            boolean logged = binary == Binary.REAL_ETCD || logSince(logOffset).contains(READY);
            if (logged && acceptsConnections()) {
                return;
            }
            Thread.sleep(50);
        }
        kill9();
        throw new IllegalStateException(describe() + " not ready after " + START_TIMEOUT_MS + " ms; log:\n" + logTail());
    }

    private void awaitLeader() throws InterruptedException {
        String problem = LeaderProbe.await(clientUrl(), START_TIMEOUT_MS, () -> process.isAlive());
        if (problem != null) {
            throw new IllegalStateException(describe() + " reports no leader (" + problem + "); log:\n" + logTail());
        }
    }

    private String logSince(long offset) throws IOException {
        byte[] all = Files.readAllBytes(logFile);
        return new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset),
                StandardCharsets.UTF_8);
    }

    private boolean acceptsConnections() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", clientPort), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGTERM, then SIGKILL if the process has not exited in time. */
    @Override
    public synchronized void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed. */
    public synchronized void kill9() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /** Exit code of the last run, or -1 while it runs. */
    public int exitCode() {
        return process == null || process.isAlive() ? -1 : process.exitValue();
    }

    @Override
    public String logTail() {
        try {
            if (!Files.exists(logFile)) {
                return "(no log)";
            }
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (isAlive()) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            TempDirs.delete(home);
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
