package io.etcdj.server.it;

import io.etcdj.harness.EtcdMember;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.LeaderProbe;
import io.etcdj.harness.TempDirs;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.embed.Member;
import io.etcdj.server.etcdserver.MemberContext;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Our server started inside the test JVM through {@link Member#start}: no JVM start-up cost, same ports and
 * data dir across restarts. It cannot be SIGKILLed; crash tests use {@link EtcdProcess}.
 */
public final class InProcessEtcd implements EtcdMember {
    private final Path home = TempDirs.create("etcd-it-inproc-");
    private final Path dataDir = home.resolve("data");
    private final int clientPort = FreePorts.pick();
    private final int peerPort = FreePorts.pick();
    private final Map<String, String> extraFlags;
    private volatile String fatal;
    private Member member;

    private InProcessEtcd(Map<String, String> extraFlags) {
        this.extraFlags = Map.copyOf(extraFlags);
    }

    /** Flags as etcd spells them, without the dashes: {@code Map.of("max-txn-ops", "4")}. */
    public static InProcessEtcd withFlags(Map<String, String> extraFlags) {
        return new InProcessEtcd(extraFlags);
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
        return "ours in-process at " + endpoint();
    }

    @Override
    public synchronized void start() throws Exception {
        String peerUrl = "http://127.0.0.1:" + peerPort;
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("name", "it");
        flags.put("data-dir", dataDir.toString());
        flags.put("listen-client-urls", clientUrl());
        flags.put("advertise-client-urls", clientUrl());
        flags.put("listen-peer-urls", peerUrl);
        flags.put("initial-advertise-peer-urls", peerUrl);
        flags.put("initial-cluster", "it=" + peerUrl);
        flags.putAll(extraFlags);
        member = Member.start(ServerConfig.from(flags), MemberContext.fresh(), () -> fatal = "the member reported a fatal error");
        String problem = LeaderProbe.await(clientUrl(), 60_000, () -> fatal == null);
        if (problem != null) {
            throw new IllegalStateException(describe() + " reports no leader (" + problem + "); " + logTail());
        }
    }

    @Override
    public synchronized void stop() {
        if (member != null) {
            member.close();
            member = null;
        }
    }

    @Override
    public String logTail() {
        return (fatal != null ? fatal + "; " : "") + "an in-process member logs to the test JVM's stderr";
    }

    @Override
    public synchronized void close() {
        try {
            stop();
        } finally {
            TempDirs.delete(home);
        }
    }
}
