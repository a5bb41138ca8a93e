package io.etcdj.launcher.supervisor;

import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.CommandLineBuilder;
import io.etcdj.launcher.process.CommandLineBuilder.Peer;
import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.process.LogSink;
import io.etcdj.launcher.process.MemberProcess;
import io.etcdj.launcher.process.PortProbe;
import io.etcdj.launcher.proxy.FaultProxy;
import io.etcdj.launcher.proxy.FaultRules;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.FaultMode;
import io.etcdj.launcher.spec.MemberSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Owns a running cluster: its member processes, their proxies and the fault rules, and keeps the
 * state file current. Every operation runs under this object's lock; the proxies read member pids
 * without it (see {@link #livePids()}) so a long operation never stalls peer traffic.
 */
public final class Supervisor {
    static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final ClusterSpec spec;
    private final ClusterLayout layout;
    private final EtcdBinary binary;
    private final Optional<TlsProvider> tls;
    private final LogSink sink;
    private final Duration startTimeout;
    private final StateFile stateFile;
    private final FaultRules rules = new FaultRules();
    private final Map<String, FaultProxy> proxies = new HashMap<>();
    /** The --initial-cluster each member was started with, by process name, kept for restarts. */
    private final Map<String, List<Peer>> initialClusters = new HashMap<>();
    private final Set<String> removed = new TreeSet<>();
    private volatile List<MemberProcess> members = List.of();
    private String phase = ClusterState.STARTING;
    private String error = "";
    private ControlServer control;
    /** The dashboard's address when this supervisor serves one, for the state file. */
    private String dashboard = "";
    private boolean shutDown;
    /** Members found serving clients while the cluster was brought up (the state file's {@code serving}). */
    private int serving;
    /** Set before shutdown takes the lock, so a start-up wait holding it gives up at once. */
    private volatile boolean stopping;

    public Supervisor(ClusterSpec spec, EtcdBinary binary, Optional<TlsProvider> tls, LogSink sink,
            Duration startTimeout) {
        this.spec = spec;
        this.layout = new ClusterLayout(spec.baseDir());
        this.binary = binary;
        this.tls = tls;
        this.sink = sink;
        this.startTimeout = startTimeout;
        this.stateFile = new StateFile(layout.stateFile());
    }

    public ClusterLayout layout() {
        return layout;
    }

    /** Records the dashboard's address (shown by {@code up -d} and {@code status}); call before {@link #attach}. */
    public synchronized void dashboardAt(String url) {
        this.dashboard = url;
    }

    public synchronized void attach(ControlServer server) {
        this.control = server;
        save();
    }

    /**
     * Starts the cluster and waits until every member serves clients. The members are those of the
     * cluster file, adjusted by the membership changes {@code previous} recorded, as long as their
     * data dirs still exist: a removed member stays out, an added one comes back.
     */
    public synchronized void startCluster(Optional<ClusterState> previous, Consumer<String> progress) {
        startCluster(previous, progress, StartupProgress.NONE);
    }

    /**
     * {@link #startCluster(Optional, Consumer)}, reporting the members started and serving to
     * {@code startup}; each member found serving is also recorded in the state file, where
     * {@code up --detach} reads it.
     */
    public synchronized void startCluster(Optional<ClusterState> previous, Consumer<String> progress,
            StartupProgress startup) {
        try {
            List<Peer> founders = CommandLineBuilder.founders(spec.members());
            List<MemberProcess> created = new ArrayList<>();
            Set<String> removedBefore = new HashSet<>(previous.map(ClusterState::removed).orElse(List.of()));
            for (MemberSpec m : spec.members()) {
                if (removedBefore.contains(m.name()) && !Files.exists(layout.dataDir(m))) {
                    removed.add(m.name());
                    progress.accept("not starting " + m.process() + ": it was removed from the cluster (clean starts over)");
                    continue;
                }
                created.add(newProcess(m, founders));
            }
            for (ClusterState.MemberState added : previous.map(ClusterState::members).orElse(List.of())) {
                if (spec.member(added.process()).isEmpty() && Files.exists(Path.of(added.dataDir()))) {
                    progress.accept("restarting " + added.process() + ", added to the cluster earlier");
                    created.add(newProcess(RecordedMembers.spec(added), RecordedMembers.initialCluster(added)));
                }
            }
            members = List.copyOf(created);
            PortProbe.requireFree(claims(created.stream().map(MemberProcess::spec).toList()));
            Files.createDirectories(layout.baseDir());
            for (MemberProcess mp : created) {
                startProxy(mp.spec());
            }
            int started = 0;
            for (MemberProcess mp : created) {
                progress.accept("starting " + mp.spec().process() + ": " + String.join(" ", mp.command()));
                mp.start();
                startup.started(++started, created.size());
            }
            save();
            startup.serving(0, created.size());
            newReadinessWait().await(created, true, (n, total) -> {
                serving = n;
                save();
                startup.serving(n, total);
            });
            phase = ClusterState.RUNNING;
            save();
        } catch (IOException e) {
            fail("cannot create " + layout.baseDir() + ": " + e.getMessage());
        } catch (LauncherException e) {
            fail(e.getMessage());
            throw e;
        }
    }

    private void fail(String message) {
        error = message;
        stopEverything();
        phase = ClusterState.FAILED;
        save();
        throw new LauncherException(message);
    }

    /** Runs one control request (see {@link ControlRequests}) and records the result. */
    public synchronized int handle(List<String> request, ControlServer.Reply reply) {
        int code = new ControlRequests(this).handle(request, reply);
        save();
        return code;
    }

    /** Changes the fault rules and makes every proxy apply them to its open connections. */
    void changeFaults(Consumer<FaultRules> change) {
        if (spec.faults() != FaultMode.PROXY) {
            throw new LauncherException("fault injection needs \"faults: proxy\" in the cluster file");
        }
        change.accept(rules);
        proxies.values().forEach(FaultProxy::enforce);
    }

    /**
     * Waits until each member answers Maintenance.Status; see {@link ReadinessWait}. Returns the
     * members still not serving when time ran out, or throws if {@code strict}.
     */
    List<MemberProcess> awaitReady(List<MemberProcess> wanted, boolean strict) {
        return newReadinessWait().await(wanted, strict);
    }

    private ReadinessWait newReadinessWait() {
        return new ReadinessWait(startTimeout, this::clientFor, () -> stopping, layout);
    }

    boolean tlsEnabled() {
        return tls.isPresent();
    }

    /** Stops everything and records the cluster as stopped; safe to call more than once. */
    public void shutdown() {
        stopping = true;
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
            if (control != null) {
                control.close();
                control = null;
            }
            if (!ClusterState.FAILED.equals(phase)) {
                phase = ClusterState.STOPPING;
                save();
            }
            stopEverything();
            if (!ClusterState.FAILED.equals(phase)) {
                phase = ClusterState.STOPPED;
            }
            save();
        }
        synchronized (this) {
            notifyAll();
        }
    }

    /** Blocks until {@link #shutdown()} has run. */
    public synchronized void awaitShutdown() throws InterruptedException {
        while (!shutDown) {
            wait();
        }
    }

    /**
     * Stops the followers first and the leader last. A leader stopped while its followers are
     * still up first hands leadership over, and when they are stopping at the same moment it waits
     * for a transfer that cannot happen; stopped last, it has nobody to hand over to and exits.
     */
    private void stopEverything() {
        List<MemberProcess> running = members.stream().filter(mp -> mp.pid().isPresent()).toList();
        List<CompletableFuture<Optional<MemberProcess>>> asked = running.stream()
                .map(mp -> CompletableFuture.supplyAsync(() -> Optional.of(mp).filter(this::isLeader))
                        .exceptionally(e -> Optional.empty())) // the order is a nicety; stopping must go on
                .toList();
        List<MemberProcess> leaders = asked.stream().map(CompletableFuture::join)
                .flatMap(Optional::stream).toList();
        stopInParallel(running.stream().filter(mp -> !leaders.contains(mp)).toList());
        stopInParallel(leaders);
        proxies.values().forEach(FaultProxy::close);
        proxies.clear();
        if (control != null) {
            control.close();
        }
    }

    private boolean isLeader(MemberProcess mp) {
        if (mp.state() != MemberProcess.State.RUNNING) {
            return false;
        }
        try (MemberClient c = clientFor(mp, Duration.ofSeconds(1))) {
            var status = c.status();
            return status.getLeader() == status.getHeader().getMemberId();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static void stopInParallel(List<MemberProcess> group) {
        List<Thread> stoppers = new ArrayList<>();
        for (MemberProcess mp : group) {
            Thread t = new Thread(() -> mp.stop(STOP_GRACE), "stop-" + mp.spec().process());
            t.start();
            stoppers.add(t);
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- used by ControlRequests and MembershipChanges ----

    ClusterSpec spec() {
        return spec;
    }

    List<MemberProcess> members() {
        return members;
    }

    MemberProcess find(String nameOrProcess) {
        return members.stream().filter(mp -> mp.spec().isCalled(nameOrProcess)).findFirst()
                .orElseThrow(() -> new LauncherException("unknown member \"" + nameOrProcess + "\" (members: "
                        + String.join(", ", members.stream().map(mp -> mp.spec().process()).toList()) + ")"));
    }

    MemberProcess newProcess(MemberSpec m, List<Peer> initialCluster) {
        initialClusters.put(m.process(), initialCluster);
        List<String> command = CommandLineBuilder.build(binary, spec, m, layout, initialCluster,
                tls.map(t -> t.forMember(m)));
        Map<String, String> env = new LinkedHashMap<>(spec.env());
        env.putAll(m.env());
        return new MemberProcess(m, command, env, layout.baseDir(), layout.logFile(m), sink);
    }

    void addMember(MemberProcess mp) {
        List<MemberProcess> next = new ArrayList<>(members);
        next.add(mp);
        members = List.copyOf(next);
    }

    void dropMember(MemberProcess mp) {
        List<MemberProcess> next = new ArrayList<>(members);
        next.remove(mp);
        members = List.copyOf(next);
        FaultProxy proxy = proxies.remove(mp.spec().name());
        if (proxy != null) {
            proxy.close();
        }
        rules.forget(mp.spec().name());
        initialClusters.remove(mp.spec().process());
        if (spec.member(mp.spec().process()).isPresent()) {
            removed.add(mp.spec().name());
        }
    }

    void startProxy(MemberSpec m) {
        if (spec.faults() != FaultMode.PROXY) {
            return;
        }
        URI advertised = m.peerUrl();
        URI real = m.listenPeerUrls().get(0);
        FaultProxy proxy = new FaultProxy(m.name(), new InetSocketAddress(advertised.getHost(), advertised.getPort()),
                new InetSocketAddress(real.getHost(), real.getPort()), rules, this::livePids);
        try {
            proxy.start();
        } catch (IOException e) {
            throw new LauncherException("cannot open the peer proxy for " + m.name() + " on " + advertised + ": " + e.getMessage());
        }
        proxies.put(m.name(), proxy);
    }

    /** Every port a member needs, with its owner, for {@link PortProbe}. */
    List<PortProbe.Claim> claims(List<MemberSpec> specs) {
        List<PortProbe.Claim> claims = new ArrayList<>();
        for (MemberSpec m : specs) {
            m.listenClientUrls().forEach(u -> claims.add(new PortProbe.Claim(u, "client URL of " + m.name())));
            m.listenPeerUrls().forEach(u -> claims.add(new PortProbe.Claim(u, "peer URL of " + m.name())));
            if (spec.faults() == FaultMode.PROXY) {
                claims.add(new PortProbe.Claim(m.peerUrl(), "peer proxy of " + m.name()));
            }
        }
        return claims;
    }

    MemberClient clientFor(MemberProcess mp, Duration timeout) {
        return new MemberClient(mp.spec().clientUrl(), tls.map(TlsProvider::client), timeout);
    }

    Optional<ClientTls> clientTls() {
        return tls.map(TlsProvider::client);
    }

    ClusterLayout clusterLayout() {
        return layout;
    }

    private Map<String, Long> livePids() {
        Map<String, Long> pids = new HashMap<>();
        for (MemberProcess mp : members) {
            mp.pid().ifPresent(pid -> pids.put(mp.spec().name(), pid));
        }
        return pids;
    }

    synchronized void save() {
        List<ClusterState.MemberState> states = new ArrayList<>();
        for (MemberProcess mp : members) {
            MemberSpec m = mp.spec();
            states.add(new ClusterState.MemberState(m.process(), m.name(), mp.pid().orElse(0L),
                    mp.state().name().toLowerCase(Locale.ROOT),
                    m.clientUrls().stream().map(URI::toString).toList(),
                    m.peerUrls().stream().map(URI::toString).toList(),
                    m.listenPeerUrls().stream().map(URI::toString).toList(),
                    layout.dataDir(m).toString(), layout.logFile(m).toString(),
                    rules.isPartitioned(m.name()), rules.delayOf(m.name()), m.flags(), m.initialClusterState(),
                    initialClusters.getOrDefault(m.process(), List.of()).stream()
                            .flatMap(p -> p.peerUrls().stream().map(u -> p.name() + "=" + u)).toList()));
        }
        boolean live = control != null;
        ClusterState.TlsState tlsState = tls.map(TlsProvider::client)
                .map(c -> new ClusterState.TlsState(c.caCert().toString(), c.clientCert().toString(), c.clientKey().toString()))
                .orElse(null);
        stateFile.write(new ClusterState(phase, error, ProcessHandle.current().pid(),
                live ? control.port() : 0, live ? control.secret() : "", layout.baseDir().toString(),
                binary.path() + " (" + binary.origin() + ")", spec.faults().name().toLowerCase(Locale.ROOT),
                tlsState, states, List.copyOf(removed), dashboard, serving));
    }
}
