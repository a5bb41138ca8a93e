package io.etcdj.server.cluster;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.etcdserver.EtcdServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Several members in the test JVM, joined by {@link SimulatedPeers} instead of sockets (the idea
 * of Ratis' MiniRaftCluster): the real server, WAL, backend and apply path of each, with links
 * that a test cuts and heals, and members it stops and restarts on their data dirs. No client
 * port: tests call the member's operations directly.
 */
final class InJvmCluster implements AutoCloseable {
    /** Fast timings: the members share a small machine with the rest of the build. */
    private static final String HEARTBEAT_MS = "20";
    private static final String ELECTION_MS = "250";

    /** One member: its flags, its data dir, and the server while it runs. */
    final class Node {
        final String name;
        final ServerConfig config;
        volatile EtcdServer server;
        volatile boolean fatal;

        Node(String name, ServerConfig config) {
            this.name = name;
            this.config = config;
        }

        void start() throws Exception {
            fatal = false;
            server = EtcdServer.open(config, () -> fatal = true, net::join);
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
    }

    private final Path home;
    private final SimulatedPeers net = new SimulatedPeers();
    private final List<Node> nodes = new ArrayList<>();

    private InJvmCluster(Path home) {
        this.home = home;
    }

    /** Starts {@code size} members of a new cluster and waits for a leader. */
    static InJvmCluster start(int size) throws Exception {
        return start(size, Map.of());
    }

    /** As {@link #start(int)}, every member with {@code extra} flags (etcd's names, no dashes). */
    static InJvmCluster start(int size, Map<String, String> extra) throws Exception {
        InJvmCluster c = new InJvmCluster(Files.createTempDirectory("injvm-cluster-"));
        try {
            Map<String, String> peers = new LinkedHashMap<>();
            int base = 20000 + (int) (Math.random() * 10000);
            for (int i = 1; i <= size; i++) {
                // 127.0.0.2: nothing of anyone's binds it, so the bootstrap's probe of the other members fails at once
                peers.put("m" + i, "http://127.0.0.2:" + (base + i));
            }
            String initial = peers.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
            for (Map.Entry<String, String> p : peers.entrySet()) {
                Map<String, String> flags = new LinkedHashMap<>();
                flags.put("name", p.getKey());
                flags.put("data-dir", c.home.resolve(p.getKey()).toString());
                flags.put("initial-advertise-peer-urls", p.getValue());
                flags.put("listen-peer-urls", p.getValue());
                flags.put("initial-cluster", initial);
                flags.put("initial-cluster-token", "in-jvm");
                flags.put("heartbeat-interval", HEARTBEAT_MS);
                flags.put("election-timeout", ELECTION_MS);
                flags.putAll(extra);
                c.nodes.add(c.new Node(p.getKey(), ServerConfig.from(flags)));
            }
            for (Node n : c.nodes) {
                n.start();
            }
            c.leader();
            // every member published its name: the strict reconfiguration check counts only those
            eventuallyTrue(20, "every member published", () -> c.nodes.stream().allMatch(n -> n.server.isPublished()));
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
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

    /** The running member that leads, waiting up to 20 s for one all running members agree on. */
    Node leader() {
        return eventually(20, "a leader", () -> {
            Node lead = null;
            for (Node n : nodes) {
                if (!n.running()) {
                    continue;
                }
                StatusResponse st = n.server.status();
                if (st.getLeader() == 0) {
                    return null;
                }
                if (st.getLeader() == n.id()) {
                    lead = n;
                }
            }
            return lead;
        });
    }

    /** Polls {@code probe} until it gives a value. */
    static <T> T eventually(int seconds, String what, java.util.function.Supplier<T> probe) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                T v = probe.get();
                if (v != null) {
                    return v;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
        throw new AssertionError(what + " did not happen within " + seconds + " s"
                + (last != null ? " (last error: " + last + ")" : ""));
    }

    static void eventuallyTrue(int seconds, String what, BooleanSupplier probe) {
        eventually(seconds, what, () -> probe.getAsBoolean() ? Boolean.TRUE : null);
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
