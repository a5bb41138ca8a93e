package io.etcdj.embedded;

import io.etcdj.certs.ClusterCertificates;
import io.etcdj.certs.ClusterTlsLayout;
import io.etcdj.certs.TlsFiles;
import io.etcdj.server.etcdserver.Failpoints;
import io.etcdj.server.log.LogSink;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A local etcd cluster for tests: n members of our etcd on free ports of 127.0.0.1, data dirs in a
 * temporary directory deleted on {@link #close}, in this JVM or as child processes.
 *
 * <pre>{@code
 * try (EtcdCluster etcd = EtcdCluster.builder().members(3).build().start()) {
 *     Client client = Client.builder().endpoints(etcd.clientEndpoints().toArray(URI[]::new)).build();
 *     ...
 *     etcd.waitForLeader(Duration.ofSeconds(5)).kill();   // and see the others elect a new one
 * }
 * }</pre>
 */
public final class EtcdCluster implements AutoCloseable {
    private final String name;
    private final Path root;
    private final boolean deleteRoot;
    private final ClusterTlsLayout tls;
    private final List<EtcdMember> members;
    /** The log file the builder named, open while the cluster is; null otherwise. */
    private final PrintStream logFile;

    private EtcdCluster(Builder b) {
        this.name = b.name;
        try {
            this.logFile = b.logFile == null ? null
                    : new PrintStream(new FileOutputStream(b.logFile.toFile(), true), true, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EtcdClusterException("cannot open the log file " + b.logFile + ": " + e.getMessage(), e);
        }
        // one sink for the cluster's in-process members: their lines go where the builder said, never to another cluster's
        LogSink logs = logFile != null ? LogSink.to(logFile::println) : b.logLines != null ? LogSink.to(b.logLines) : LogSink.stderr();
        try {
            this.deleteRoot = b.dataRoot == null;
            this.root = b.dataRoot != null ? Files.createDirectories(b.dataRoot) : Files.createTempDirectory("etcd-" + name + "-");
        } catch (IOException e) {
            throw new EtcdClusterException("cannot create the cluster's directory: " + e.getMessage(), e);
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < b.size; i++) {
            names.add(b.prefix + i);
        }
        this.tls = b.tls ? ClusterCertificates.forMembers(names.stream()
                .map(n -> new ClusterCertificates.Member(n, List.of("127.0.0.1", "localhost", n))).toList())
                .writeTo(root.resolve("tls")) : null;
        String scheme = b.tls ? "https" : "http";
        List<URI> clientUrls = new ArrayList<>();
        List<URI> peerUrls = new ArrayList<>();
        for (int i = 0; i < b.size; i++) {
            clientUrls.add(URI.create(scheme + "://127.0.0.1:" + Ports.pick()));
            peerUrls.add(URI.create(scheme + "://127.0.0.1:" + Ports.pick()));
        }
        StringBuilder initialCluster = new StringBuilder();
        for (int i = 0; i < b.size; i++) {
            initialCluster.append(i == 0 ? "" : ",").append(names.get(i)).append('=').append(peerUrls.get(i));
        }
        List<EtcdMember> list = new ArrayList<>();
        for (int i = 0; i < b.size; i++) {
            String member = names.get(i);
            Path dataDir = root.resolve(member + ".etcd");
            List<String> flags = new ArrayList<>(List.of(
                    "--name=" + member,
                    "--data-dir=" + dataDir,
                    "--listen-client-urls=" + clientUrls.get(i),
                    "--advertise-client-urls=" + clientUrls.get(i),
                    "--listen-peer-urls=" + peerUrls.get(i),
                    "--initial-advertise-peer-urls=" + peerUrls.get(i),
                    "--initial-cluster=" + initialCluster,
                    "--initial-cluster-token=" + name,
                    "--initial-cluster-state=new"));
            if (tls != null) {
                TlsFiles given = b.serverCertificates.get(member);
                TlsFiles server = given != null ? given : tls.server(member);
                TlsFiles peer = tls.peer(member);
                // no --trusted-ca-file on the client URLs: as in etcd, it would demand a client certificate
                flags.addAll(List.of("--cert-file=" + server.certFile(), "--key-file=" + server.keyFile(),
                        "--peer-cert-file=" + peer.certFile(), "--peer-key-file=" + peer.keyFile(),
                        "--peer-trusted-ca-file=" + peer.trustedCaFile(), "--peer-client-cert-auth"));
            }
            overrideWith(flags, b.additionalArgs);
            HealthProbe probe = new HealthProbe(clientUrls.get(i));
            String failpoints = b.failpoints.get(member);
            MemberRunner runner = b.mode == Mode.IN_PROCESS ? new InProcessRunner(member, failpoints, logs)
                    : new ChildProcessRunner(member, root.resolve(member + ".log"), probe, failpoints);
            List<String> fixed = List.copyOf(flags);
            list.add(new EtcdMember(member, clientUrls.get(i), peerUrls.get(i), dataDir, runner, probe, () -> fixed,
                    b.startTimeout));
        }
        this.members = List.copyOf(list);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Adds {@code extra} to {@code flags}, dropping a default that an extra flag of the same name replaces. */
    static void overrideWith(List<String> flags, List<String> extra) {
        for (String arg : extra) {
            if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String flag = eq < 0 ? arg : arg.substring(0, eq);
                flags.removeIf(f -> f.equals(flag) || f.startsWith(flag + "="));
            }
        }
        flags.addAll(extra);
    }

    /**
     * Starts every member at once (a new cluster needs a majority up to elect a leader) and returns
     * once each serves clients. On failure, the members already up are stopped and the error says
     * which member failed and why.
     */
    public EtcdCluster start() {
        forEachMember(EtcdMember::start);
        return this;
    }

    /** Stops every member in order; {@link #start} brings them back on their data dirs. */
    public void stop() {
        forEachMember(m -> {
            if (m.isRunning()) {
                m.stop();
            }
        });
    }

    /** Stops every member and starts them again on their data dirs. */
    public void restart() {
        stop();
        start();
    }

    private void forEachMember(Consumer<EtcdMember> action) {
        ExecutorService pool = Executors.newFixedThreadPool(members.size(), r -> {
            Thread t = new Thread(r, "etcd-embedded-" + name);
            t.setDaemon(true);
            return t;
        });
        try {
            List<CompletableFuture<Void>> all = members.stream()
                    .map(m -> CompletableFuture.runAsync(() -> action.accept(m), pool)).toList();
            try {
                CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw cause instanceof RuntimeException re ? re : new EtcdClusterException(cause.getMessage(), cause);
            }
        } finally {
            pool.shutdown();
        }
    }

    public String name() {
        return name;
    }

    public List<EtcdMember> members() {
        return members;
    }

    public EtcdMember member(int index) {
        return members.get(index);
    }

    public EtcdMember member(String memberName) {
        return members.stream().filter(m -> m.name().equals(memberName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no member named " + memberName + " in " + members));
    }

    /** Every member's client URL, in member order (for a client's endpoints). */
    public List<URI> clientEndpoints() {
        return members.stream().map(EtcdMember::clientEndpoint).toList();
    }

    public List<URI> peerEndpoints() {
        return members.stream().map(EtcdMember::peerEndpoint).toList();
    }

    /** With TLS: the CA that signed every certificate, and a client certificate (common name "root"). */
    public Optional<TlsFiles> clientTls() {
        return Optional.ofNullable(tls).map(ClusterTlsLayout::client);
    }

    /**
     * Waits until every running member names the same leader, and returns that member. Throws
     * when they do not agree within {@code within}.
     */
    public EtcdMember waitForLeader(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        do {
            EtcdMember leader = agreedLeader();
            if (leader != null) {
                return leader;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EtcdClusterException("interrupted while waiting for a leader", e);
            }
        } while (System.nanoTime() < deadline);
        throw new EtcdClusterException("the members of " + name + " did not agree on a leader within "
                + within.toMillis() + " ms");
    }

    private EtcdMember agreedLeader() {
        long leader = 0;
        EtcdMember found = null;
        for (EtcdMember m : members) {
            if (!m.isRunning()) {
                continue;
            }
            long[] status = m.probe().memberAndLeader();
            if (status == null || status[1] == 0 || (leader != 0 && status[1] != leader)) {
                return null;
            }
            leader = status[1];
            if (status[0] == leader) {
                found = m;
            }
        }
        return found;
    }

    /** Stops every member and deletes the data dirs (and certificates) this cluster made. */
    @Override
    public void close() {
        try {
            forEachMember(m -> {
                if (m.isRunning()) {
                    m.kill();
                }
            });
        } finally {
            if (logFile != null) {
                logFile.close();
            }
            if (deleteRoot) {
                deleteTree(root);
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    /** How to build a cluster; every setting has a default that gives one plain member. */
    public static final class Builder {
        private int size = 1;
        private String name = "etcd-test-" + Long.toHexString(System.nanoTime());
        private String prefix = "member";
        private boolean tls;
        private Mode mode = Mode.IN_PROCESS;
        private final List<String> additionalArgs = new ArrayList<>();
        private Path dataRoot;
        private Duration startTimeout = Duration.ofSeconds(60);
        private final Map<String, TlsFiles> serverCertificates = new HashMap<>();
        private final Map<String, String> failpoints = new HashMap<>();
        private Consumer<String> logLines;
        private Path logFile;

        private Builder() {
        }

        /** How many members (1, or 3 or 5 for a cluster that survives failures). */
        public Builder members(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster needs at least one member, not " + count);
            }
            this.size = count;
            return this;
        }

        /** The cluster's name, also its {@code --initial-cluster-token}. */
        public Builder name(String value) {
            this.name = requireText(value, "name");
            return this;
        }

        /** Members are named PREFIX0, PREFIX1, ... ("member" by default). */
        public Builder memberNamePrefix(String value) {
            this.prefix = requireText(value, "member name prefix");
            return this;
        }

        /** TLS on client and peer URLs, with certificates made for this cluster. */
        public Builder tls(boolean value) {
            this.tls = value;
            return this;
        }

        public Builder mode(Mode value) {
            this.mode = Objects.requireNonNull(value, "mode");
            return this;
        }

        /** More {@code etcd} flags for every member (e.g. {@code --auto-compaction-retention=1}); they win over the defaults. */
        public Builder additionalArgs(String... args) {
            this.additionalArgs.addAll(List.of(args));
            return this;
        }

        public Builder additionalArgs(Collection<String> args) {
            this.additionalArgs.addAll(args);
            return this;
        }

        /**
         * With {@link #tls}: the certificate and key a member serves its clients with, instead of
         * one made for the run (e.g. certificates a project keeps for its TLS tests).
         */
        public Builder serverCertificate(String memberName, Path certFile, Path keyFile) {
            this.serverCertificates.put(memberName, new TlsFiles(certFile, keyFile, null));
            return this;
        }

        /**
         * Failpoints of the member named {@code memberName}, as {@code name=action[,name=action]}
         * ({@code sleep(millis)} or {@code crash}; the points are listed in docs/testing.md): that
         * member alone runs them, from its every start. A {@code crash} halts the member's JVM, so
         * it needs {@link Mode#CHILD_PROCESS}.
         *
         * @throws IllegalArgumentException if {@code spec} is malformed
         */
        public Builder failpoints(String memberName, String spec) {
            Failpoints.validate(spec);
            this.failpoints.put(requireText(memberName, "member name"), spec);
            return this;
        }

        /**
         * The members' log lines (etcd's JSON, one call per line, from the members' threads) to
         * {@code lines} instead of standard error. In-process members only: a child process writes
         * {@code <member>.log} beside its data dir.
         */
        public Builder logTo(Consumer<String> lines) {
            this.logLines = Objects.requireNonNull(lines, "lines");
            this.logFile = null;
            return this;
        }

        /** The members' log lines appended to {@code file} instead of standard error (in-process members only, as {@link #logTo}). */
        public Builder logFile(Path file) {
            this.logFile = Objects.requireNonNull(file, "file");
            this.logLines = null;
            return this;
        }

        /** Keep the data dirs here (not deleted on close) instead of in a temporary directory. */
        public Builder dataRoot(Path dir) {
            this.dataRoot = dir;
            return this;
        }

        public Builder startTimeout(Duration value) {
            this.startTimeout = value;
            return this;
        }

        /** Makes the cluster's directory, ports and certificates; {@link EtcdCluster#start} starts it. */
        public EtcdCluster build() {
            if (mode == Mode.CHILD_PROCESS && (logLines != null || logFile != null)) {
                throw new IllegalArgumentException("logTo and logFile are for in-process members;"
                        + " a child process member writes <member>.log beside its data dir");
            }
            for (var e : failpoints.entrySet()) {
                if (IntStream.range(0, size).noneMatch(i -> e.getKey().equals(prefix + i))) {
                    throw new IllegalArgumentException("failpoints for " + e.getKey() + ", which is not a member of this cluster");
                }
                if (mode == Mode.IN_PROCESS && e.getValue().contains("=crash")) {
                    throw new IllegalArgumentException("failpoint crash of " + e.getKey()
                            + " would halt this JVM: build the cluster with .mode(Mode.CHILD_PROCESS)");
                }
            }
            return new EtcdCluster(this);
        }

        private static String requireText(String value, String what) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("the " + what + " must not be empty");
            }
            return value;
        }
    }
}
