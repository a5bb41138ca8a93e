package io.etcdj.server.tls;

import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.embed.Member;
import io.etcdj.server.etcdserver.MemberContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A member of our server started in the test JVM with TLS flags, on free ports of 127.0.0.1.
 * Several start concurrently (a member returns from start only once its cluster has a leader).
 */
final class TlsMember implements AutoCloseable {
    final String name;
    final int clientPort;
    final int peerPort;
    final Map<String, String> flags = new LinkedHashMap<>();
    private Member member;

    TlsMember(String name, Path dataDir, boolean httpsClient, boolean httpsPeer) throws IOException {
        this.name = name;
        this.clientPort = freePort();
        this.peerPort = freePort();
        flags.put("name", name);
        flags.put("data-dir", dataDir.toString());
        flags.put("listen-client-urls", clientUrl(httpsClient));
        flags.put("advertise-client-urls", clientUrl(httpsClient));
        flags.put("listen-peer-urls", peerUrl(httpsPeer));
        flags.put("initial-advertise-peer-urls", peerUrl(httpsPeer));
        flags.put("initial-cluster", name + "=" + peerUrl(httpsPeer));
        flags.put("initial-cluster-token", "tls-it");
        flags.put("log-level", "warn");
    }

    private String clientUrl(boolean https) {
        return (https ? "https" : "http") + "://127.0.0.1:" + clientPort;
    }

    String peerUrl(boolean https) {
        return (https ? "https" : "http") + "://127.0.0.1:" + peerPort;
    }

    String endpoint() {
        return "127.0.0.1:" + clientPort;
    }

    String https(String path) {
        return "https://" + endpoint() + path;
    }

    TlsMember set(String flag, Object value) {
        flags.put(flag, String.valueOf(value));
        return this;
    }

    /** Starts the members together and waits for all (a cluster elects its leader meanwhile). */
    static void startAll(List<TlsMember> members) throws Exception {
        // One thread each: a member's start blocks until the others are up.
        ExecutorService pool = Executors.newFixedThreadPool(members.size());
        try {
            List<CompletableFuture<Void>> starts = members.stream().map(m -> CompletableFuture.runAsync(() -> {
                try {
                    m.member = Member.start(ServerConfig.from(m.flags), MemberContext.fresh(), () -> { });
                } catch (Exception e) {
                    throw new IllegalStateException(m.name + " did not start: " + e.getMessage(), e);
                }
            }, pool)).toList();
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdown();
        }
    }

    /**
     * A port free right now, from below the kernel's ephemeral range: a port bind(0) hands out can
     * be taken by an outgoing connection (members dial each other) before the member binds it.
     */
    static int freePort() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20000, 32000);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IOException("no free port on 127.0.0.1 between 20000 and 32000");
    }

    @Override
    public void close() {
        if (member != null) {
            member.close();
            member = null;
        }
    }
}
