package io.etcdj.server.embed;

import io.etcdj.server.version.Versions;

import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.transport.PeerTransport;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.log.Log;
import io.etcdj.server.tls.MemberTls;
import io.etcdj.server.tls.TlsStartupCheck;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;

/** A member process: the server plus its listeners, started and stopped together. */
public final class Member implements AutoCloseable {
    private static final Log LOG = Log.get("embed/etcd");

    private final ServerConfig config;
    private EtcdServer server;
    private final ClientListeners clients = new ClientListeners();

    private Member(ServerConfig config) {
        this.config = config;
    }

    /** Opens the data dir, starts Raft and the listeners; returns once clients can connect. */
    public static Member start(ServerConfig config, Runnable onFatal) throws ConfigException, IOException {
        Member m = new Member(config);
        LOG.info("starting an etcd server", "etcd-version", Versions.SERVER, "name", config.name(),
                "data-dir", config.dataDir().toString(),
                "listen-client-urls", config.listenClientUrls().stream().map(URI::toString).toList(),
                "advertise-client-urls", config.advertiseClientUrls().stream().map(URI::toString).toList(),
                "initial-advertise-peer-urls", config.initialAdvertisePeerUrls().stream().map(URI::toString).toList(),
                "initial-cluster-state", config.initialClusterStateNew() ? "new" : "existing",
                "quota-backend-bytes", config.quotaBackendBytes(),
                "max-request-bytes", config.maxRequestBytes(),
                "heartbeat-interval", config.heartbeatMillis() + "ms",
                "election-timeout", config.electionMillis() + "ms");
        MemberTls tls = new TlsStartupCheck(config, Clock.systemUTC()).run();
        m.server = EtcdServer.open(config, onFatal, handler -> {
            PeerTransport peers = new PeerTransport(handler);
            try {
                peers.useTls(tls.peerServer(), tls.peerClient());
                peers.listen(config.listenPeerUrls());
            } catch (IOException | RuntimeException e) {
                peers.close();
                throw e;
            }
            return peers;
        });
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
        LOG.info("ready to serve client requests");
        return m;
    }

    public EtcdServer server() {
        return server;
    }

    @Override
    public void close() {
        LOG.info("closing etcd server", "name", config.name(), "data-dir", config.dataDir().toString());
        clients.close();
        if (server != null) {
            server.close();
        }
        LOG.info("closed etcd server", "name", config.name());
    }
}
