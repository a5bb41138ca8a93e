package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyRequest;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewRequest;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersRequest;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.peerpb.PeerGrpc;
import io.etcdj.raftpb.Message;
import io.etcdj.server.listen.BindFailure;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.listen.ListenAddress;
import io.etcdj.server.listen.OffEventLoop;
import io.etcdj.server.listen.SharedTcpLoops;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.tls.TlsProtocolNegotiator;
import io.grpc.Attributes;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * Member-to-member traffic over the peer URLs: a server on each --listen-peer-urls address that
 * takes Raft streams ({@link RaftStreamReceiver}), gRPC calls and etcd's HTTP endpoints ({@link
 * PeerHttp}) on the same port, and one {@link PeerClient} per remote member. Also the one-shot calls
 * a member makes before or beside Raft (discovery when joining, lease calls forwarded to the leader).
 */
public final class PeerTransport implements Transporter {
    /** How long a peer-port connection may stay silent before it says what it speaks. */
    private static final long SILENCE_MILLIS = 10_000;
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private final PeerHandler handler;
    private final SenderCheck senders;
    private final RaftStreamDialer dialer;
    private final Map<Long, PeerClient> clients = new ConcurrentHashMap<>();
    private final List<Server> servers = new ArrayList<>();
    /** Runs the peer calls that may block (hashes, lease answers, snapshots); Raft messages stay on the event loop. */
    private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "peer-handler");
        t.setDaemon(true);
        return t;
    });
    private final OffEventLoop offEventLoop;
    /** Unix socket files to remove on close. */
    private final List<ListenAddress> unixSockets = new ArrayList<>();
    private volatile boolean closed;
    private volatile SslContext serverTls;
    private volatile SslContext clientTls;
    private volatile PeerLinks links = PeerLinks.DEFAULTS;
    private final PeerHttpClient http;
    private final Prober prober;
    /** Made on first use ({@link #unixLoops}, {@link #defaultClientTls}); guarded by this. */
    private EventLoopGroup unixLoops;
    /** The member's TCP loops (shared with its client port), or this transport's own. */
    private final SharedTcpLoops tcpLoops;
    private final boolean ownsTcpLoops;
    private SslContext defaultClientTls;
    private final Metrics metrics;
    private final LogSink logs;

    /** The peer network of the member {@code handler} serves, counting into the member's {@code metrics}, on TCP loops of its own. */
    public PeerTransport(PeerHandler handler, Metrics metrics, LogSink logs) {
        this(handler, metrics, logs, null);
    }

    /** As above, on the member's TCP loops {@code memberLoops} (which the member shuts down after closing this), or on its own (null). */
    public PeerTransport(PeerHandler handler, Metrics metrics, LogSink logs, SharedTcpLoops memberLoops) {
        this.ownsTcpLoops = memberLoops == null;
        this.tcpLoops = ownsTcpLoops ? new SharedTcpLoops("peer", 0) : memberLoops;
        this.log = logs.logger("rafthttp/transport");
        this.logs = logs;
        this.offEventLoop = new OffEventLoop(handlers, Set.of(), logs);
        this.handler = handler;
        this.senders = new SenderCheck(handler, logs);
        this.dialer = new RaftStreamDialer(() -> links, tcpLoops, this::unixLoops,
                () -> clientTls != null ? clientTls : defaultClientTls());
        this.metrics = metrics;
        this.http = new PeerHttpClient(dialer);
        this.prober = new Prober(handler, http, metrics.peers);
    }

    /** Sets the connection settings (--raft-read-timeout, --raft-write-timeout, SetMemberLocalAddr). Call before listening. */
    public void useLinks(PeerLinks links) {
        this.links = links;
    }

    /**
     * Sets the TLS contexts: {@code server} for https listen URLs, {@code client} for dialing https
     * peers (null: the JDK's default trust, no client certificate). Call before listening.
     */
    public void useTls(SslContext server, SslContext client) {
        this.serverTls = server;
        this.clientTls = client;
    }

    public void listen(List<URI> urls) throws IOException {
        for (URI u : urls) {
            ListenAddress where = new ListenAddress(u);
            String host = where.display();
            boolean secure = ListenAddress.isSecure(u);
            if (secure && serverTls == null) {
                throw new IOException("cannot listen on TLS for " + host
                        + ": KeyFile and CertFile are not presented");
            }
            NettyServerBuilder b = NettyServerBuilder.forAddress(where.bindAddress())
                    .directExecutor()
                    .addService(ServerInterceptors.intercept(new PeerService(handler, metrics, senders), offEventLoop))
                    .maxInboundMessageSize(64 << 20)
                    .permitKeepAliveWithoutCalls(true)
                    .permitKeepAliveTime(1, TimeUnit.SECONDS);
            long read = links.readTimeout().toNanos();
            if (read > 0) {
                // etcd's read deadline: a connection silent for the read timeout fails; here the
                // member pings its peer after a third of it and drops the connection when the
                // answer has not come by the end of it
                b.keepAliveTime(Math.max(1, read / 3), TimeUnit.NANOSECONDS)
                        .keepAliveTimeout(Math.max(1, read - read / 3), TimeUnit.NANOSECONDS);
            }
            b.protocolNegotiator(secure ? new TlsProtocolNegotiator(serverTls, links.verifyClientSan(), logs, this::sniffer)
                    : new PlaintextPeerPort(this::sniffer));
            if (where.isUnix()) {
                b.channelType(where.serverChannelType()).bossEventLoopGroup(unixLoops()).workerEventLoopGroup(unixLoops());
            } else {
                IoLoops loops = tcpLoops.get();
                b.channelType(loops.serverChannelType(where)).bossEventLoopGroup(loops.boss()).workerEventLoopGroup(loops.workers());
            }
            try {
                servers.add(b.build().start());
            } catch (IOException e) {
                throw BindFailure.of(where.isUnix(), host, e);
            }
            if (where.isUnix()) {
                where.publish();
                unixSockets.add(where);
            }
            log.info(secure ? "serving peer traffic securely" : "serving peer traffic", "address", host);
        }
    }

    @Override
    public void send(List<Message> messages) {
        if (closed) {
            return;
        }
        PeerClient last = null;
        for (Message m : messages) {
            if (m.getTo() == handler.memberId() || m.getTo() == 0) {
                continue;
            }
            PeerClient c = client(m.getTo());
            if (last != null && last != c) {
                last.flush();
            }
            c.send(m);
            last = c;
        }
        if (last != null) {
            last.flush();
        }
    }

    private PeerClient client(long peerId) {
        return clients.computeIfAbsent(peerId,
                id -> new PeerClient(id, handler, this::dial, dialer, links.writeTimeout(), metrics, logs));
    }

    /** Forgets a removed member's connection. */
    @Override
    public void removePeer(long id) {
        PeerClient c = clients.remove(id);
        if (c != null) {
            c.close();
        }
    }

    /**
     * A channel builder for {@code peerUrl}: TLS with {@code tls} for https ({@code defaultTls}'s
     * when null: the JDK's trust, no client certificate), on {@code unixLoops}' loops for a unix
     * socket and {@code tcpLoops}' for TCP (null: grpc-java's default loops).
     */
    private static NettyChannelBuilder channelBuilder(String peerUrl, SslContext tls, Supplier<EventLoopGroup> unixLoops,
                                                      Supplier<IoLoops> tcpLoops, Supplier<SslContext> defaultTls) {
        URI u = URI.create(peerUrl);
        NettyChannelBuilder b;
        if (ListenAddress.isUnix(u)) {
            ListenAddress where = new ListenAddress(u);
            b = NettyChannelBuilder.forAddress(where.dialAddress()).channelType(where.channelType())
                    .eventLoopGroup(unixLoops.get());
        } else {
            String host = "localhost".equals(u.getHost()) ? "127.0.0.1" : u.getHost();
            byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
            // an address needs no name resolution: grpc-java's DNS resolver would run it on a
            // thread pool of its own, started for nothing (at a cluster's start, in every member)
            b = literal != null ? NettyChannelBuilder.forAddress(new InetSocketAddress(inetAddress(literal), u.getPort()))
                    : NettyChannelBuilder.forTarget(host + ":" + u.getPort());
            if (tcpLoops != null) {
                IoLoops loops = tcpLoops.get();
                b.eventLoopGroup(loops.workers()).channelType(loops.channelType());
            }
        }
        if (ListenAddress.isSecure(u)) {
            return b.sslContext(tls != null ? tls : defaultTls.get());
        }
        return b.usePlaintext();
    }

    private static InetAddress inetAddress(byte[] literal) {
        try {
            return InetAddress.getByAddress(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e); // not for an address of 4 or 16 bytes
        }
    }

    /**
     * This transport's event loops for unix-socket peers, made on first use and closed with it:
     * grpc-java's default loops are epoll or TCP-only, so a domain socket channel needs NIO loops
     * of its own.
     */
    private synchronized EventLoopGroup unixLoops() {
        if (unixLoops == null) {
            unixLoops = newUnixLoops(0);
        }
        return unixLoops;
    }

    private static EventLoopGroup newUnixLoops(int threads) {
        return new NioEventLoopGroup(threads, new DefaultThreadFactory("peer-unix", true));
    }

    /** This transport's client TLS for https peers when no --peer-* certificate is given, made on first use. */
    private synchronized SslContext defaultClientTls() {
        if (defaultClientTls == null) {
            defaultClientTls = newDefaultClientTls();
        }
        return defaultClientTls;
    }

    private static SslContext newDefaultClientTls() {
        try {
            return GrpcSslContexts.forClient().build();
        } catch (SSLException e) {
            throw new IllegalStateException("TLS is not available in this Java runtime: " + e.getMessage(), e);
        }
    }

    /** A channel builder for a peer URL with this transport's TLS and source address. */
    NettyChannelBuilder dial(String peerUrl) {
        NettyChannelBuilder b = channelBuilder(peerUrl, clientTls, this::unixLoops, tcpLoops, this::defaultClientTls);
        String local = links.localAddress();
        if (local != null && !ListenAddress.isUnix(URI.create(peerUrl))) {
            InetSocketAddress from = new InetSocketAddress(local, 0);
            b.localSocketPicker(new NettyChannelBuilder.LocalSocketPicker() {
                @Override
                public SocketAddress createSocketAddress(SocketAddress remote, Attributes attrs) {
                    return from;
                }
            });
        }
        return b;
    }

    /** What follows TLS on a peer-port connection: the handler that tells Raft streams, gRPC and HTTP/1 apart. */
    private ChannelHandler sniffer(GrpcHttp2ConnectionHandler grpc) {
        var grpcHandler = InternalProtocolNegotiators.grpcNegotiationHandler(grpc);
        return new PeerPortSniffer(grpcHandler, this::receiverHandlers, () -> PeerHttp.handlers(handler), SILENCE_MILLIS);
    }

    /** The handlers of an incoming Raft stream, after its preface: etcd's read deadline, the frames, the receiver. */
    private List<ChannelHandler> receiverHandlers() {
        List<ChannelHandler> hs = new ArrayList<>();
        long read = links.readTimeout().toMillis();
        if (read > 0) {
            hs.add(new ReadTimeoutHandler(read, TimeUnit.MILLISECONDS));
        }
        hs.add(RaftStreamFrames.decoder());
        // a peer whose stream arrives listens now: this member's stream to it is dialed at once, not at the next redial
        hs.add(new RaftStreamReceiver(handler, senders, metrics.peers,
                id -> Optional.ofNullable(clients.get(id)).ifPresent(PeerClient::redialNow)));
        return hs;
    }

    /**
     * Opens a Raft stream to each other member now (each client dials again every 100 ms until its
     * peer answers), and starts probing them for round-trip times.
     */
    public void connect() {
        if (closed) {
            return;
        }
        for (long id : handler.remoteMembers()) {
            client(id);
        }
        prober.start();
    }

    /** The other members this one has an open Raft stream to: etcd's active peers. */
    @Override
    public int activePeers() {
        return (int) handler.remoteMembers().stream().map(clients::get).filter(c -> c != null && c.active()).count();
    }

    @Override
    public boolean reachable(long id) {
        PeerClient c = clients.get(id); // none yet: the first message makes one, which dials and queues it
        return c == null || c.streamOpen();
    }

    /**
     * One blocking call on a short-lived channel to a peer URL ({@code tls} for https), made
     * before a member has a transport (joining): a unix-socket loop or default TLS it needs is
     * its own, and ends with it.
     */
    private static <T> T call(String peerUrl, SslContext tls, long timeoutMillis,
                              Function<PeerGrpc.PeerBlockingStub, T> fn) {
        AtomicReference<EventLoopGroup> loops = new AtomicReference<>();
        ManagedChannel ch = channelBuilder(peerUrl, tls, () -> {
            loops.set(newUnixLoops(1));
            return loops.get();
        }, null, PeerTransport::newDefaultClientTls).build();
        try {
            return fn.apply(PeerGrpc.newBlockingStub(ch).withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS));
        } finally {
            ch.shutdownNow();
            if (loops.get() != null) {
                loops.get().shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
        }
    }

    private <T> T call(String peerUrl, long timeoutMillis, Function<PeerGrpc.PeerBlockingStub, T> fn) {
        ManagedChannel ch = dial(peerUrl).build();
        try {
            return fn.apply(PeerGrpc.newBlockingStub(ch).withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS));
        } finally {
            ch.shutdownNow();
        }
    }

    /** A member's server version: its peer URL's {@code GET /version}, as etcd's downgrade monitor asks. */
    @Override
    public String serverVersionOf(long memberId, long timeoutMillis) {
        return http.serverVersion(firstUrl(memberId), timeoutMillis);
    }

    /**
     * Asks a peer for the cluster's members (used when joining); {@code tls} is used when the URL
     * is https (null: the JDK's default trust, no client certificate).
     */
    public static MembersResponse fetchMembers(String peerUrl, long timeoutMillis, SslContext tls) {
        return call(peerUrl, tls, timeoutMillis, stub -> stub.members(MembersRequest.getDefaultInstance()));
    }

    /** Renews a lease on the leader. */
    @Override
    public LeaseRenewResponse renewOnLeader(long leaderId, long lease, long timeoutMillis) {
        return call(firstUrl(leaderId), timeoutMillis,
                stub -> stub.leaseRenew(LeaseRenewRequest.newBuilder().setId(lease).build()));
    }

    /** Asks the leader for a lease's time to live. */
    @Override
    public LeaseTimeToLiveResponse timeToLiveOnLeader(long leaderId, LeaseTimeToLiveRequest r, long timeoutMillis) {
        return call(firstUrl(leaderId), timeoutMillis, stub -> stub.leaseTimeToLive(r));
    }

    /** Asks the leader whether a learner has caught up. */
    @Override
    public LearnerReadyResponse learnerReadyOnLeader(long leaderId, long member, long timeoutMillis) {
        return call(firstUrl(leaderId), timeoutMillis, stub -> stub.learnerReady(
                LearnerReadyRequest.newBuilder().setMemberId(member).build()));
    }

    /** Asks a member for its HashKV at {@code revision}. */
    @Override
    public HashKVResponse hashKvOf(long memberId, long revision, long timeoutMillis) {
        return call(firstUrl(memberId), timeoutMillis, stub -> stub.hashKV(
                HashKVRequest.newBuilder().setRevision(revision).build()));
    }

    private String firstUrl(long id) {
        List<String> urls = handler.peerUrls(id);
        if (urls.isEmpty()) {
            throw new IllegalStateException("no peer URL for member " + Long.toHexString(id));
        }
        return urls.get(0);
    }

    @Override
    public void close() {
        closed = true;
        prober.close();
        clients.values().forEach(PeerClient::close);
        clients.clear();
        for (Server s : servers) {
            s.shutdownNow();
        }
        handlers.shutdownNow();
        unixSockets.forEach(ListenAddress::release);
        synchronized (this) {
            if (unixLoops != null) {
                unixLoops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
            if (ownsTcpLoops) {
                tcpLoops.close();
            }
        }
    }
}
