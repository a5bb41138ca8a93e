package io.etcdj.robustness;

import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.launcher.proxy.FaultProxy;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A 3-member cluster of processes on 127.0.0.1 whose peer traffic goes through one fault proxy
 * per member: each member listens for peers on its own port and advertises the proxy's, so the
 * proxies see every peer connection and can cut or slow it ({@link FaultRules}: a member
 * isolated, one link cut, a member's links delayed).
 */
final class Cluster implements AutoCloseable {
    /** Which server the members run. */
    enum Server {
        OURS, ETCD;

        static Server parse(String s) {
            return switch (s) {
                case "ours" -> OURS;
                case "etcd" -> ETCD;
                default -> throw new IllegalArgumentException("--server must be ours or etcd, not " + s);
            };
        }
    }

    final Server server;
    final Path dir;
    private Network network;
    private final List<MemberProcess> members = new ArrayList<>();
    private final Map<String, ManagedChannel> channels = new LinkedHashMap<>();

    private Cluster(Server server, Path dir) {
        this.server = server;
        this.dir = dir;
    }

    /**
     * Starts the members and their network (fault proxies on loopback, or with {@code namespaces}
     * one network namespace per member) and waits until a leader serves.
     */
    static Cluster start(Server server, Path dir, Path projectRoot, int size, boolean namespaces) throws Exception {
        Cluster c = new Cluster(server, dir);
        try {
            if (namespaces) {
                Namespaces ns = Namespaces.create(size);
                c.network = ns;
                String initial = "";
                for (int i = 1; i <= size; i++) {
                    initial += (i > 1 ? "," : "") + "m" + i + "=http://" + ns.address(i) + ":2380";
                }
                for (int i = 1; i <= size; i++) {
                    String host = ns.address(i);
                    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns.namespace(i)));
                    cmd.addAll(memberCommand(server, projectRoot, dir, "m" + i, host, 2379, 2380, 2380, initial));
                    c.members.add(new MemberProcess("m" + i, host, 2379, 2380, 2380, dir, cmd));
                }
                for (MemberProcess m : c.members) {
                    m.start();
                }
                c.awaitLeader(60);
                return c;
            }
            List<int[]> ports = new ArrayList<>();
            Set<Integer> taken = new HashSet<>();
            for (int i = 0; i < size; i++) {
                int[] p = new int[3];
                for (int j = 0; j < 3; j++) {
                    do {
                        p[j] = freePort();
                    } while (!taken.add(p[j]));
                }
                ports.add(p);
            }
            String initial = "";
            for (int i = 0; i < size; i++) {
                initial += (i > 0 ? "," : "") + "m" + (i + 1) + "=http://127.0.0.1:" + ports.get(i)[2];
            }
            for (int i = 0; i < size; i++) {
                String name = "m" + (i + 1);
                int[] p = ports.get(i);
                c.members.add(new MemberProcess(name, "127.0.0.1", p[0], p[1], p[2], dir,
                        memberCommand(server, projectRoot, dir, name, "127.0.0.1", p[0], p[1], p[2], initial)));
            }
            List<FaultProxy> proxies = new ArrayList<>();
            Network.Proxied proxied = new Network.Proxied(proxies);
            c.network = proxied;
            for (MemberProcess m : c.members) {
                FaultProxy proxy = new FaultProxy(m.name, new InetSocketAddress("127.0.0.1", m.advertisedPeerPort),
                        new InetSocketAddress("127.0.0.1", m.peerPort), proxied.rules, c::livePids);
                proxy.start();
                proxies.add(proxy);
            }
            for (MemberProcess m : c.members) {
                m.start();
            }
            c.awaitLeader(60);
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    private static List<String> memberCommand(Server server, Path projectRoot, Path dir, String name, String host,
                                              int clientPort, int peerPort, int advertisedPeerPort, String initial) {
        return memberCommand(server == Server.OURS ? projectRoot.resolve("bin/etcd") : Path.of("/usr/bin/etcd"),
                dir.resolve(name + ".etcd"), name, host, clientPort, peerPort, advertisedPeerPort, initial, "new");
    }

    /** A member's command line: binary is ours (bin/etcd) or the real etcd; state is "new" or "existing". */
    static List<String> memberCommand(Path binary, Path dataDir, String name, String host, int clientPort, int peerPort,
                                      int advertisedPeerPort, String initial, String state) {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary.toString());
        cmd.addAll(List.of("--name=" + name, "--data-dir=" + dataDir,
                "--listen-client-urls=http://" + host + ":" + clientPort, "--advertise-client-urls=http://" + host + ":" + clientPort,
                "--listen-peer-urls=http://" + host + ":" + peerPort,
                "--initial-advertise-peer-urls=http://" + host + ":" + advertisedPeerPort,
                "--initial-cluster=" + initial, "--initial-cluster-state=" + state, "--initial-cluster-token=robustness",
                "--heartbeat-interval=50", "--election-timeout=500"));
        if (!Files.isRegularFile(binary.resolveSibling("run-module"))) {
            // the real etcd logs to journald otherwise; ours (bin/etcd, beside run-module) logs to stderr
            cmd.addAll(List.of("--logger=zap", "--log-outputs=stderr"));
        }
        return cmd;
    }

    Network network() {
        return network;
    }

    private Map<String, Long> livePids() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (MemberProcess m : members) {
            long pid = m.pid();
            if (pid > 0) {
                out.put(m.name, pid);
            }
        }
        return out;
    }

    List<MemberProcess> members() {
        return List.copyOf(members);
    }

    MemberProcess member(String name) {
        return members.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
    }

    synchronized ManagedChannel channel(MemberProcess m) {
        return channels.computeIfAbsent(m.name, n -> NettyChannelBuilder.forAddress(m.host, m.clientPort)
                .usePlaintext().maxInboundMessageSize(16 << 20).build());
    }

    KVGrpc.KVBlockingStub kv(MemberProcess m, long timeoutMillis) {
        return KVGrpc.newBlockingStub(channel(m)).withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    MaintenanceGrpc.MaintenanceBlockingStub maintenance(MemberProcess m, long timeoutMillis) {
        return MaintenanceGrpc.newBlockingStub(channel(m)).withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** A member's own Status, or null if it does not answer in time. */
    StatusResponse status(MemberProcess m, long timeoutMillis) {
        if (!m.isAlive() || m.paused()) {
            return null;
        }
        try {
            return maintenance(m, timeoutMillis).status(StatusRequest.getDefaultInstance());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The member that reports itself leader, or null. */
    MemberProcess leader() {
        for (MemberProcess m : members) {
            StatusResponse st = status(m, 500);
            if (st != null && st.getLeader() != 0 && st.getLeader() == st.getHeader().getMemberId()) {
                return m;
            }
        }
        return null;
    }

    MemberProcess awaitLeader(int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            MemberProcess l = leader();
            if (l != null) {
                return l;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no leader within " + seconds + " s; logs:\n" + logTails(15));
    }

    /**
     * A cluster of member processes the caller made, on plain loopback (no fault proxies), not
     * yet started.
     */
    static Cluster of(Server server, Path dir, List<MemberProcess> members) {
        Cluster c = new Cluster(server, dir);
        c.members.addAll(members);
        return c;
    }

    /** A member that joins later (member add). */
    void add(MemberProcess m) {
        members.add(m);
    }

    /** Ends every fault: links healed, paused members resumed, stopped members started. */
    void recover() throws IOException, InterruptedException {
        if (network != null) {
            network.heal();
        }
        for (MemberProcess m : members) {
            m.resume();
            m.start();
        }
    }

    /** A gRPC channel to a restarted member may sit in its reconnect backoff: try again now. */
    synchronized void reconnect(MemberProcess m) {
        ManagedChannel ch = channels.get(m.name);
        if (ch != null) {
            ch.resetConnectBackoff();
        }
    }

    String logTails(int lines) {
        return members.stream().map(m -> "--- " + m.name + " ---\n" + m.logTail(lines)).collect(Collectors.joining("\n"));
    }

    @Override
    public void close() {
        for (MemberProcess m : members) {
            try {
                m.kill9();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        channels.values().forEach(ManagedChannel::shutdownNow);
        if (network != null) {
            network.close();
        }
    }

    static int freePort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20000, 32000);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException e) {
                // taken
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1");
    }
}
