package io.etcdj.launcher.dashboard;

import io.etcdj.certs.TlsFiles;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.StateFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Keeps the dashboard's picture of the cluster current: reads the state file (what the
 * supervisor knows: processes, pids, faults), keeps one {@link MemberProbe} per running member,
 * joins both into a {@link ClusterView}, and hands each view to the {@link EventDetector} and the
 * term chart. Works for a cluster that stops and starts again: everything comes from the state
 * file each time.
 */
final class ClusterWatcher implements AutoCloseable {
    static final long TICK_MILLIS = 250;
    static final long STATUS_MILLIS = 250;
    static final long HTTP_MILLIS = 2000;
    /** A Status answer older than this no longer counts: the member stopped answering. */
    static final long STALE_MILLIS = 1500;
    /** How long a process may be gone before the state file says so (the supervisor saves after each action). */
    static final long EXIT_GRACE_MILLIS = 2000;

    private final StateFile stateFile;
    private final History history;
    private final EventDetector detector;
    private final EventLog log;
    private final LongSupplier clock;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(named("dashboard-watch"));
    private final ScheduledExecutorService probing = Executors.newScheduledThreadPool(6, named("dashboard-probe"));
    private final Map<String, Probing> probes = new HashMap<>();
    /** Member IDs seen, by process name: a stopped member keeps showing its ID. */
    private final Map<String, String> knownIds = new HashMap<>();
    /** When a member's process was first seen gone while the state file still called it alive. */
    private final Map<String, Long> goneSince = new HashMap<>();
    private volatile ClusterView view;
    private volatile Optional<ClientTls> tls = Optional.empty();
    private HttpClient http;
    private String httpFor = "";

    /** A probe and its two schedules. */
    private record Probing(MemberProbe probe, ScheduledFuture<?> status, ScheduledFuture<?> http) {
        void cancel() {
            status.cancel(false);
            http.cancel(false);
            probe.close();
        }
    }

    ClusterWatcher(StateFile stateFile, History history, EventDetector detector, EventLog log, LongSupplier clock) {
        this.stateFile = stateFile;
        this.history = history;
        this.detector = detector;
        this.log = log;
        this.clock = clock;
        this.view = new ClusterView(clock.getAsLong(), false, "none", "", "none", false, null, 0, List.of());
    }

    void start() {
        ticker.scheduleWithFixedDelay(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    ClusterView view() {
        return view;
    }

    Optional<ClientTls> tls() {
        return tls;
    }

    private void tick() {
        try {
            Optional<ClusterState> state;
            try {
                state = stateFile.read();
            } catch (LauncherException e) {
                return; // a half-written file is replaced atomically; read it next time
            }
            ClusterView next = build(state);
            view = next;
            next.members().stream().filter(m -> m.answering() && m.term() > 0) // a joining member's 0 is no term
                    .forEach(m -> history.addTerm(m.process(), next.at(), m.term()));
            detector.observe(next).forEach(e -> log.add(e.at(), e.kind(), e.text()));
        } catch (RuntimeException e) {
            log.add("error", "dashboard: " + e); // keep ticking; the page shows what went wrong
        }
    }

    private ClusterView build(Optional<ClusterState> state) {
        long now = clock.getAsLong();
        if (state.isEmpty()) {
            syncProbes(List.of());
            return new ClusterView(now, false, "none", "", "none", false, null, 0, List.of());
        }
        ClusterState s = state.get();
        boolean running = s.supervisorAlive();
        tls = Optional.ofNullable(s.tls())
                .map(t -> new ClientTls(Path.of(t.caCert()), Path.of(t.clientCert()), Path.of(t.clientKey())));
        List<ClusterState.MemberState> live = new ArrayList<>();
        List<MemberView> members = new ArrayList<>();
        for (ClusterState.MemberState m : s.members()) {
            String processState = processState(m, now);
            if (running && ("running".equals(processState) || "paused".equals(processState))) {
                live.add(m);
            }
            members.add(view(m, processState, now));
        }
        syncProbes(live);
        Optional<MemberView> leader = ClusterView.leaderOf(members);
        long term = members.stream().filter(MemberView::answering).mapToLong(MemberView::term).max().orElse(0);
        return new ClusterView(now, running, s.phase(), s.baseDir(), s.faults(), s.tls() != null,
                leader.map(MemberView::process).orElse(null), term, List.copyOf(members));
    }

    /**
     * The state file's word, corrected when the process has been gone for a while without the
     * supervisor noticing (it exited by itself). A process the supervisor is killing right now is
     * gone a moment before the state file says "killed": that moment does not count.
     */
    private String processState(ClusterState.MemberState m, long now) {
        boolean claimsAlive = "running".equals(m.state()) || "paused".equals(m.state());
        boolean alive = m.pid() > 0 && ProcessHandle.of(m.pid()).map(ProcessHandle::isAlive).orElse(false);
        String key = m.process() + "/" + m.pid();
        if (!claimsAlive || alive) {
            goneSince.remove(key);
            return m.state();
        }
        long since = goneSince.computeIfAbsent(key, k -> now);
        return now - since >= EXIT_GRACE_MILLIS ? "exited" : m.state();
    }

    private MemberView view(ClusterState.MemberState m, String processState, long now) {
        Probing p = probes.get(m.process());
        Optional<StatusReading> status = Optional.ofNullable(p).flatMap(x -> x.probe().status())
                .filter(r -> "running".equals(processState) && now - r.at() <= STALE_MILLIS);
        boolean answering = status.map(StatusReading::answered).orElse(false);
        StatusReading r = status.filter(StatusReading::answered).orElse(null);
        if (r != null) {
            knownIds.put(m.process(), Long.toHexString(r.id()));
        }
        String role = "";
        if (r != null) {
            role = r.learner() ? "learner" : r.leader() == 0 ? "no leader" : r.leader() == r.id() ? "leader" : "follower";
        }
        String health = Optional.ofNullable(p).filter(x -> "running".equals(processState))
                .flatMap(x -> x.probe().health())
                .filter(h -> now - h.at() <= 2 * HTTP_MILLIS + MemberProbe.CALL_TIMEOUT.toMillis() * 2)
                .map(h -> h.healthy() ? "healthy" : "unhealthy" + (h.reason().isEmpty() ? "" : ": " + h.reason()))
                .orElse("");
        String failure = status.filter(x -> !x.answered()).map(StatusReading::failure).orElse("");
        return new MemberView(m.process(), m.name(), knownIds.getOrDefault(m.process(), ""), m.pid(), processState,
                m.partitioned(), m.delayMillis(), m.clientUrls().get(0), m.peerUrls().isEmpty() ? "" : m.peerUrls().get(0),
                answering, failure, role, r == null ? 0 : r.term(), r == null ? 0 : r.commitIndex(),
                r == null ? 0 : r.appliedIndex(), r == null ? 0 : r.dbSize(), r == null ? 0 : r.dbSizeInUse(),
                r == null ? List.of() : r.errors(), health, r == null ? "" : r.version());
    }

    /** Starts probes for members that run and stops those of members that no longer do. */
    private void syncProbes(List<ClusterState.MemberState> live) {
        Map<String, URI> wanted = new HashMap<>();
        live.forEach(m -> wanted.put(m.process(), URI.create(m.clientUrls().get(0))));
        probes.entrySet().removeIf(e -> {
            boolean keep = e.getValue().probe().clientUrl().equals(wanted.get(e.getKey()));
            if (!keep) {
                e.getValue().cancel();
            }
            return !keep;
        });
        for (Map.Entry<String, URI> w : wanted.entrySet()) {
            if (!probes.containsKey(w.getKey())) {
                MemberProbe probe = new MemberProbe(w.getKey(), w.getValue(), tls, httpClient(), history, clock);
                probes.put(w.getKey(), new Probing(probe,
                        probing.scheduleWithFixedDelay(probe::probeStatus, 0, STATUS_MILLIS, TimeUnit.MILLISECONDS),
                        probing.scheduleWithFixedDelay(probe::probeHttp, 0, HTTP_MILLIS, TimeUnit.MILLISECONDS)));
            }
        }
    }

    /** HTTP/1.1 (a member's client port takes h2 for gRPC only), with the client certificate under TLS. */
    private HttpClient httpClient() {
        String key = tls.map(ClientTls::toString).orElse("");
        if (http == null || !key.equals(httpFor)) {
            HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(MemberProbe.CALL_TIMEOUT);
            tls.ifPresent(t -> b.sslContext(new TlsFiles(t.clientCert(), t.clientKey(), t.caCert()).sslContext()));
            http = b.build();
            httpFor = key;
        }
        return http;
    }

    private static ThreadFactory named(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        probes.values().forEach(Probing::cancel);
        probes.clear();
        probing.shutdownNow();
    }
}
