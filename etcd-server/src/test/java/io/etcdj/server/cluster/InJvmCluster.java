package io.etcdj.server.cluster;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.etcdserver.MemberContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Several members in the test JVM, joined by {@link SimulatedPeers} instead of sockets (the idea
 * of Ratis' MiniRaftCluster): the real server, WAL, backend and apply path of each, with links
 * that a test cuts and heals, and members it stops and restarts on their data dirs. No client
 * port: tests call the member's operations directly.
 *
 * <p>The members run on one {@link ManualClock}: nothing that depends on time happens until the
 * test moves it ({@link #advance}, {@link #tickUntil}, {@link #await}), one heartbeat interval (a
 * tick) at a time, so elections, lease expiry and deadlines happen at the simulated time Raft and
 * etcd's rules say, however loaded the machine is. Raft's election timeouts are drawn from a
 * seeded random: a failure message names the seed, and {@code -Dinjvm.seed=N} replays it.
 */
final class InJvmCluster implements AutoCloseable {
    /** etcd's defaults: simulated time costs nothing. */
    static final long HEARTBEAT_MS = 100;
    static final long ELECTION_MS = 1000;
    static final int ELECTION_TICKS = (int) (ELECTION_MS / HEARTBEAT_MS);
    /** How long {@link #tickAndWaitUntil} gives threads outside the clock after each tick. */
    static final long GRACE_MILLIS = 50;
    /** The member's request timeout (5 s plus two election timeouts) in ticks, and some. */
    static final int REQUEST_TICKS = (int) ((5000 + 2 * ELECTION_MS) / HEARTBEAT_MS) + 2 * ELECTION_TICKS;

    /** One member: its flags, its data dir, and the server while it runs. */
    final class Node {
        final String name;
        final ServerConfig config;
        private final int index;
        private int starts;
        volatile EtcdServer server;
        /** The node's own registry and failpoints (kept across its restarts, so a test can read them after one). */
        final MemberContext context = MemberContext.fresh();
        volatile boolean fatal;

        Node(String name, int index, ServerConfig config) {
            this.name = name;
            this.index = index;
            this.config = config;
        }

        void start() throws Exception {
            fatal = false;
            Random random = new Random((seed * 31 + index) * 31 + starts++);
            try {
                server = EtcdServer.open(config, context, () -> fatal = true, net::join, clock, random);
            } catch (Exception | Error e) {
                clock.forgetUnstarted();
                throw e;
            }
            server.start();
        }

        void stop() {
            EtcdServer s = server;
            server = null;
            if (s != null) {
                s.close();
            }
        }

        boolean running() {
            return server != null;
        }

        long id() {
            return server.memberId();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final Path home;
    private final long seed;
    private final ManualClock clock = new ManualClock();
    private final SimulatedPeers net = new SimulatedPeers(clock);
    private final List<Node> nodes = new ArrayList<>();
    private final long origin = clock.nanoTime();
    /** Simulated time from the start to the first leader. */
    private long firstLeaderNanos;

    private InJvmCluster(Path home, long seed) {
        this.home = home;
        this.seed = seed;
    }

    /** Starts {@code size} members of a new cluster and ticks until they have a leader. */
    static InJvmCluster start(int size) throws Exception {
        return start(size, Map.of());
    }

    /** As {@link #start(int)}, every member with {@code extra} flags (etcd's names, no dashes). */
    static InJvmCluster start(int size, Map<String, String> extra) throws Exception {
        return start(size, extra, Long.getLong("injvm.seed", new Random().nextLong()));
    }

    /** As {@link #start(int, Map)}, with Raft's randomness from {@code seed}. */
    static InJvmCluster start(int size, Map<String, String> extra, long seed) throws Exception {
        InJvmCluster c = new InJvmCluster(Files.createTempDirectory("injvm-cluster-"), seed);
        System.err.println("in-JVM cluster seed " + seed + " (-Dinjvm.seed=" + seed + " replays it)");
        try {
            Map<String, String> peers = new LinkedHashMap<>();
            int base = 20000 + (int) (Math.random() * 10000);
            for (int i = 1; i <= size; i++) {
                // 127.0.0.2: nothing of anyone's binds it, so the bootstrap's probe of the other members fails at once
                peers.put("m" + i, "http://127.0.0.2:" + (base + i));
            }
            String initial = peers.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
            int index = 0;
            for (Map.Entry<String, String> p : peers.entrySet()) {
                Map<String, String> flags = new LinkedHashMap<>();
                flags.put("name", p.getKey());
                flags.put("data-dir", c.home.resolve(p.getKey()).toString());
                flags.put("initial-advertise-peer-urls", p.getValue());
                flags.put("listen-peer-urls", p.getValue());
                flags.put("initial-cluster", initial);
                flags.put("initial-cluster-token", "in-jvm");
                flags.put("heartbeat-interval", Long.toString(HEARTBEAT_MS));
                flags.put("election-timeout", Long.toString(ELECTION_MS));
                flags.putAll(extra);
                c.nodes.add(c.new Node(p.getKey(), index++, ServerConfig.from(flags)));
            }
            for (Node n : c.nodes) {
                n.start();
            }
            c.leader();
            c.firstLeaderNanos = c.now() - c.origin;
            // every member published its name: the strict reconfiguration check counts only those
            c.tickAndWaitUntil("every member published", ELECTION_TICKS,
                    () -> c.nodes.stream().allMatch(n -> n.server.isPublished()));
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    long seed() {
        return seed;
    }

    /** How long (in simulated time) the new cluster took to elect its first leader. */
    long firstLeaderNanos() {
        return firstLeaderNanos;
    }

    SimulatedPeers net() {
        return net;
    }

    Node node(int i) {
        return nodes.get(i);
    }

    List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** The members' time, in nanoseconds. */
    long now() {
        return clock.nanoTime();
    }

    /** Moves the members' time on by {@code ticks} heartbeat intervals. */
    void advance(int ticks) {
        clock.advance(ticks * TimeUnit.MILLISECONDS.toNanos(HEARTBEAT_MS));
    }

    /** Moves the members' time on by {@code d}. */
    void advance(Duration d) {
        clock.advance(d.toNanos());
    }

    /** Waits (in real time, briefly) until the members have handled everything sent so far. */
    void settle() {
        clock.settle();
    }

    /**
     * Ticks until {@code done} holds, checking before the first tick and after each; returns the
     * ticks it took. Fails after {@code maxTicks}.
     */
    int tickUntil(String what, int maxTicks, BooleanSupplier done) {
        clock.settle();
        for (int ticks = 0; ; ticks++) {
            if (holds(done)) {
                return ticks;
            }
            if (ticks == maxTicks) {
                throw new AssertionError(what + " did not happen within " + maxTicks + " ticks (seed " + seed + ")");
            }
            advance(1);
        }
    }

    /**
     * As {@link #tickUntil}, for a condition that a thread the clock does not wait for makes true
     * (publishing, the response pool, a removed member's stop): after each tick it also gives
     * that thread up to {@value #GRACE_MILLIS} ms of real time.
     */
    int tickAndWaitUntil(String what, int maxTicks, BooleanSupplier done) {
        return tickUntil(what, maxTicks, () -> {
            long limit = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
            while (!holds(done)) {
                if (System.nanoTime() - limit > 0) {
                    return false;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            return true;
        });
    }

    private static boolean holds(BooleanSupplier done) {
        try {
            return done.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The result of {@code f}, ticking while it is not done (at most a request timeout and two
     * election timeouts); throws its failure as an {@link ExecutionException}.
     */
    <T> T await(CompletableFuture<T> f) throws ExecutionException, InterruptedException {
        clock.settle();
        for (int ticks = 0; ; ticks++) {
            try {
                // completions are handed to the member's response pool: give it a moment
                return f.get(5, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (ticks == REQUEST_TICKS) {
                    throw new AssertionError("not done after " + REQUEST_TICKS + " ticks (seed " + seed + ")");
                }
                advance(1);
            }
        }
    }

    /** The running member all running members agree leads, or null. */
    Node currentLeader() {
        Node lead = null;
        for (Node n : nodes) {
            if (!n.running()) {
                continue;
            }
            StatusResponse st = n.server.memberStatus().status();
            if (st.getLeader() == 0) {
                return null;
            }
            if (st.getLeader() == n.id()) {
                lead = n;
            }
        }
        if (lead == null) {
            return null;
        }
        long id = lead.id();
        return nodes.stream().filter(Node::running).allMatch(n -> n.server.memberStatus().status().getLeader() == id) ? lead : null;
    }

    /** Ticks until the running members agree on a leader (at most ten election timeouts). */
    Node leader() {
        tickUntil("a leader", 10 * ELECTION_TICKS, () -> currentLeader() != null);
        return currentLeader();
    }

    @Override
    public void close() {
        for (Node n : nodes) {
            try {
                n.stop();
            } catch (RuntimeException ignored) {
                // keep closing the others
            }
        }
        net.close();
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp dir is harmless
        }
    }
}
