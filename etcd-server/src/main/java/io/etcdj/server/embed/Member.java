package io.etcdj.server.embed;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.etcdserver.Failpoints;
import io.etcdj.server.etcdserver.MemberContext;
import io.etcdj.server.listen.SharedTcpLoops;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.tls.MemberTls;
import io.etcdj.server.tls.TlsStartupCheck;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.PeerLinks;
import io.etcdj.server.transport.PeerTransport;
import io.etcdj.server.version.Versions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** A member process: the server plus its listeners, started and stopped together. */
public final class Member implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final ServerConfig config;
    private EtcdServer server;
    /** The event loops of the client port, the peer port and the connections to the peers. */
    private final SharedTcpLoops loops;
    private final ClientListeners clients;

    private Member(ServerConfig config, MemberContext context) {
        this.config = config;
        // the host's loops (one per core unless io.netty.eventLoopThreads says), shared by the members on it
        int hostLoops = Integer.getInteger("io.netty.eventLoopThreads", Runtime.getRuntime().availableProcessors());
        this.loops = new SharedTcpLoops("member",
                EventLoopBudget.loopsFor(config.initialCluster(), config.initialAdvertisePeerUrls(), hostLoops));
        this.log = context.log("embed/etcd");
        this.clients = new ClientListeners(context.logs(), loops);
    }

    /**
     * Starts the member of the {@code etcd} command: a registry of its own, the failpoints of
     * the environment (read once, at start; docs/testing.md), its lines to {@code logs}.
     */
    public static Member start(ServerConfig config, LogSink logs, Runnable onFatal) throws ConfigException, IOException {
        MemberContext context;
        try {
            context = new MemberContext(new Metrics(), Failpoints.fromEnvironment(logs.logger("etcdserver/failpoints")), logs);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        return start(config, context, onFatal);
    }

    /** Opens the data dir, starts Raft and the listeners; returns once clients can connect. */
    public static Member start(ServerConfig config, MemberContext context, Runnable onFatal) throws ConfigException, IOException {
        Member m = new Member(config, context);
        Log log = m.log;
        log.info("starting an etcd server", "etcd-version", Versions.SERVER, "name", config.name(),
                "data-dir", config.dataDir().toString(),
                "listen-client-urls", config.listenClientUrls().stream().map(URI::toString).toList(),
                "advertise-client-urls", config.advertiseClientUrls().stream().map(URI::toString).toList(),
                "initial-advertise-peer-urls", config.initialAdvertisePeerUrls().stream().map(URI::toString).toList(),
                "initial-cluster-state", config.initialClusterStateNew() ? "new" : "existing",
                "quota-backend-bytes", config.quotaBackendBytes(),
                "max-request-bytes", config.maxRequestBytes(),
                "heartbeat-interval", config.heartbeatMillis() + "ms",
                "election-timeout", config.electionMillis() + "ms");
        MemberTls tls = new TlsStartupCheck(config, Clock.systemUTC(), context.logs()).run();
        log.info("backend freelist", "backend-bbolt-freelist-type", config.options().tuning().freelistType(),
                "meaning", "none here: the LMDB backend keeps its own list of free pages, inside its file");
        if (config.options().tuning().memoryMlock()) {
            log.info("mlocking memory");
            try {
                MemoryLock.lockAll();
            } catch (IOException e) {
                // etcd ends any start-up error it has no word for with this line
                log.fatal("discovery failed", "error", e.getMessage());
                throw new Fatal(e.getMessage());
            }
        }
        // as etcd's bootstrap: the cluster is looked up once the member is starting, not while flags are read
        ServerConfig bootstrap = ClusterDiscovery.resolve(config, context.logs());
        boolean opened = false;
        try {
            m.server = EtcdServer.open(bootstrap, context, onFatal, handler -> m.listenToPeers(handler, context, tls));
            opened = true;
        } finally {
            if (!opened) {
                m.loops.close(); // the peer port may have made them
            }
        }
        try {
            if (config.options().initialCorruptCheck()) {
                m.server.initialCorruptCheck();
            }
            // Client listeners are bound before the member starts: from the "published" line on
            // (and earlier) a client connection is accepted, never refused; requests made before
            // the member is published wait for Raft like any other.
            m.clients.start(m.server, tls.clientPort());
            m.server.start();
            m.server.publishedFuture().join();
        } catch (IOException | RuntimeException e) {
            m.close();
            throw e;
        }
        log.info("ready to serve client requests");
        return m;
    }

    /** The member's peer network: its peer port listening, its peers dialled, on the member's loops. */
    private PeerTransport listenToPeers(PeerHandler handler, MemberContext context, MemberTls tls) throws IOException {
        PeerTransport peers = new PeerTransport(handler, context.metrics(), context.logs(), loops);
        try {
            peers.useTls(tls.peerServer(), tls.peerClient());
            var tuning = config.options().tuning();
            peers.useLinks(new PeerLinks(tuning.raftReadTimeout(), tuning.raftWriteTimeout(),
                    tuning.setMemberLocalAddr() ? inferLocalAddr(config, log) : null, !tuning.peerSkipClientSanVerification(),
                    Duration.ofMillis(1000 + config.electionMillis())));
            peers.listen(config.listenPeerUrls());
            peers.connect();
        } catch (IOException | RuntimeException e) {
            peers.close();
            throw e;
        }
        return peers;
    }

    /**
     * The SetMemberLocalAddr feature gate, as etcd 3.6 infers the address: the host of the first
     * advertised peer URL that is an IP address, neither loopback nor unspecified; none (the system
     * picks) otherwise.
     */
    static String inferLocalAddr(ServerConfig config, Log log) {
        List<String> advertised = config.initialAdvertisePeerUrls().stream().map(URI::toString).toList();
        log.info("searching for a suitable member local address in AdvertisePeerURLs", "advertise-peer-urls", advertised);
        for (URI u : config.initialAdvertisePeerUrls()) {
            InetAddress a = ipLiteral(u.getHost());
            if (a != null && !a.isLoopbackAddress() && !a.isAnyLocalAddress()) {
                log.info("setting member local address", "LocalAddr", a.getHostAddress());
                return a.getHostAddress();
            }
        }
        log.warn("unable to set a member local address due to lack of suitable local addresses", "advertise-peer-urls", advertised);
        return null;
    }

    /** The address an IP literal names (IPv6 in brackets or not), null for a host name (never resolved). */
    static InetAddress ipLiteral(String host) {
        if (host == null || host.isEmpty()) {
            return null;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean literal = h.contains(":") || h.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        if (!literal) {
            return null;
        }
        try {
            return InetAddress.getByName(h);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** A start-up failure already logged at fatal level: the process exits with status 1, nothing more. */
    public static final class Fatal extends IOException {
        private static final long serialVersionUID = 1L;

        Fatal(String message) {
            super(message);
        }
    }

    public EtcdServer server() {
        return server;
    }

    /** Whether the member stopped because it was removed from its cluster: etcd's process then exits 0. */
    public boolean wasRemoved() {
        return server.isRemoved();
    }

    @Override
    public void close() {
        log.info("closing etcd server", "name", config.name(), "data-dir", config.dataDir().toString());
        clients.close();
        if (server != null) {
            server.close();
        }
        loops.close();
        log.info("closed etcd server", "name", config.name());
    }
}
