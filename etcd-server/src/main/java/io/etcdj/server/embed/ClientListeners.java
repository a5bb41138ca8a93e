package io.etcdj.server.embed;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.AuthGrpc;
import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.v3electionpb.ElectionGrpc;
import io.etcdj.api.v3lockpb.LockGrpc;
import io.etcdj.healthpb.HealthGrpc;
import io.etcdj.server.api.AuthService;
import io.etcdj.server.api.Caller;
import io.etcdj.server.api.Callers;
import io.etcdj.server.api.ClusterService;
import io.etcdj.server.api.ElectionService;
import io.etcdj.server.api.HealthService;
import io.etcdj.server.api.KvService;
import io.etcdj.server.api.LeaseService;
import io.etcdj.server.api.LockService;
import io.etcdj.server.api.MaintenanceService;
import io.etcdj.server.api.WatchService;
import io.etcdj.server.config.MemberOptions;
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.gateway.AccessControl;
import io.etcdj.server.gateway.GatewayRoutes;
import io.etcdj.server.gateway.HealthChecks;
import io.etcdj.server.gateway.HttpHandler;
import io.etcdj.server.gateway.HttpRefused;
import io.etcdj.server.gateway.ProtocolSniffer;
import io.etcdj.server.listen.BindFailure;
import io.etcdj.server.listen.GrpcHttp2Connection;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.listen.ListenAddress;
import io.etcdj.server.listen.OffEventLoop;
import io.etcdj.server.listen.SharedTcpLoops;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.GrpcMetrics;
import io.etcdj.server.slowlog.RequestStats;
import io.etcdj.server.version.Versions;
import io.grpc.HandlerRegistry;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * The client-facing listeners: for every --listen-client-urls address one port that serves gRPC
 * and HTTP/1.1 (over TLS for https URLs), plus the in-process gRPC server the JSON gateway calls
 * into.
 */
final class ClientListeners implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    /** The member's sink, for what the listeners build. */
    private final LogSink logs;
    /** etcd lets a gRPC message exceed --max-request-bytes by this much (headers, framing). */
    private static final int GRPC_OVERHEAD_BYTES = 512 * 1024;
    /**
     * A gateway body is JSON with base64 bytes: it may be a few times its request's protobuf size,
     * which is what the limit applies to (the gateway answers gRPC's "message larger than max").
     */
    private static final int HTTP_BODY_FACTOR = 4;

    private final List<Server> servers = new ArrayList<>();
    /**
     * The client port's gRPC on Netty's HTTP/2 codec ({@code listen.GrpcHttp2Connection}), the
     * default; {@code -Detcdj.clientTransport=grpc-java} serves it with grpc-java's server instead.
     */
    static final String TRANSPORT_PROPERTY = "etcdj.clientTransport";
    /** Listeners serving gRPC on Netty's HTTP/2 codec. */
    private final List<Channel> http2Listeners = new ArrayList<>();
    /** Unix socket files to remove when the listeners close. */
    private final List<ListenAddress> unixSockets = new ArrayList<>();
    /** Runs gRPC handlers: a bounded pool (grpc-java's default grows a thread per burst); a few may block (defragment, snapshot). */
    private final ExecutorService handlers = Executors.newFixedThreadPool(
            Math.max(16, 4 * Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "grpc-handler");
                t.setDaemon(true);
                return t;
            });
    /**
     * The unary calls whose handlers never block (they propose, or read, and answer from a
     * future): they run on the connection's event loop; every other call is moved to
     * {@link #handlers} by {@link io.etcdj.server.listen.OffEventLoop}.
     */
    private static final Set<String> NON_BLOCKING = Set.of(
            "etcdserverpb.KV/Range", "etcdserverpb.KV/Put", "etcdserverpb.KV/DeleteRange", "etcdserverpb.KV/Txn",
            "etcdserverpb.Lease/LeaseGrant", "etcdserverpb.Lease/LeaseRevoke");
    /**
     * The member's TCP loops, shared with its peer port; the member shuts them down. Nothing may
     * wait on them: a client's call that waited there for a linearizable read would also hold the
     * peer connection that brings the read's confirmation (once, on grpc-java's shared loops,
     * /health did and timed out). Every such wait completes from a future (docs/CONCURRENCY.md).
     */
    private final SharedTcpLoops tcpLoops;
    private IoLoops unixLoops;
    private final MetricsListeners metricsListeners;
    private final ClientHttpListeners httpListeners;
    /** The client connections (gRPC and HTTP) of every client listener, closed first on close. */
    private final ChannelGroup connections =
            new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private ClientServices services;
    private GatewayChannel gatewayChannel;

    /** The event loops for a listener at {@code where}, created on first use (epoll for TCP where it loads). */
    private IoLoops loops(ListenAddress where) {
        if (where.isUnix()) {
            if (unixLoops == null) {
                unixLoops = IoLoops.forUnix("client");
            }
            return unixLoops;
        }
        return tcpLoops.get();
    }

    ClientListeners(LogSink logs, SharedTcpLoops tcpLoops) {
        this.logs = logs;
        this.tcpLoops = tcpLoops;
        this.log = logs.logger("embed/serve");
        this.metricsListeners = new MetricsListeners(logs);
        this.httpListeners = new ClientHttpListeners(logs);
    }

    /** Starts the listeners; {@code tls} serves the https URLs (null when all are http). */
    void start(EtcdServer server, SslContext tls) throws IOException {
        // every service learns its caller (token or client certificate) through the same interceptor
        Callers callers = new Callers(server.auth(), server.config().clientSecurity().clientCertAuth());
        HealthService health = new HealthService(
                server.config().options().tuning().stopGrpcServiceOnDefrag(), logs);
        var opts = server.config().options();
        GrpcMetrics grpcMetrics = new GrpcMetrics(server.metrics().grpc,
                opts.metricsExtensive());
        // each service is bound on its first call (see ClientServices); a bound service's methods
        // are counted from then on, and all are bound before a scrape so all are exported
        UnaryOperator<ServerServiceDefinition> withCaller = s -> ServerInterceptors.intercept(s, callers);
        services = new ClientServices(grpcMetrics::register)
                .add(KVGrpc.SERVICE_NAME, () -> withCaller.apply(new KvService(server.kv()).bindService()))
                .add(WatchGrpc.SERVICE_NAME, () -> withCaller.apply(new WatchService(server.watches(), server.auth(),
                        server.metrics()).bindService()))
                .add(LeaseGrpc.SERVICE_NAME, () -> withCaller.apply(new LeaseService(server.leases()).bindService()))
                .add(ClusterGrpc.SERVICE_NAME, () -> withCaller.apply(new ClusterService(server.cluster(), server.auth()).bindService()))
                .add(MaintenanceGrpc.SERVICE_NAME, () -> withCaller.apply(
                        new MaintenanceService(server.maintenance(), server.auth(), health).bindService()))
                .add(HealthGrpc.SERVICE_NAME, () -> withCaller.apply(health.bindService()))
                .add(AuthGrpc.SERVICE_NAME, () -> withCaller.apply(new AuthService(server.auth()).bindService()))
                .add(LockGrpc.SERVICE_NAME, () -> withCaller.apply(new LockService(server.kv(), server.watches()).bindService()))
                .add(ElectionGrpc.SERVICE_NAME, () -> withCaller.apply(
                        new ElectionService(server.kv(), server.watches()).bindService()));
        int maxMessage = server.config().maxRequestBytes() + GRPC_OVERHEAD_BYTES;
        String name = "gateway-" + server.memberId() + "-" + System.nanoTime();
        var requestStats = new RequestStats(opts.watchdog().warningUnaryRequestDuration(), logs);
        // etcd's gateway is a gRPC client of its member: its calls are counted (gRPC families,
        // etcd_server_client_requests_total with client_api_version "unknown") and timed as any client's
        gatewayChannel = new GatewayChannel(name, maxMessage,
                services.registry(s -> ServerInterceptors.intercept(s, grpcMetrics, requestStats)));
        OffEventLoop offEventLoop = new OffEventLoop(handlers, NON_BLOCKING, logs);
        var access = new AccessControl(opts.clientHttp().cors(), opts.clientHttp().hostWhitelist(),
                logs);
        GatewayRoutes routes = opts.enableGrpcGateway() ? new GatewayRoutes(services::all) : null;
        Endpoints endpoints = new Endpoints(server, services, logs);
        HttpHandler http = new HttpHandler(routes, gatewayChannel, endpoints, maxMessage, opts.enablePprof(),
                opts.maxConcurrentStreams());
        if (opts.enablePprof()) {
            log.info("JVM diagnostics are enabled under /debug/jvm/ (--enable-pprof)");
        }
        metricsListeners.start(opts.listenMetricsUrls(), endpoints, tls);
        List<URI> httpUrls = opts.clientHttp().listenClientHttpUrls();
        httpListeners.start(httpUrls, http, access, tls, HTTP_BODY_FACTOR * maxMessage);
        for (URI url : server.config().listenClientUrls()) {
            // each listener's gateway has its own share of --max-concurrent-streams, as etcd's has a connection of its own
            ChannelHandler httpOnClientPort = httpUrls.isEmpty() ? http.forAnotherListener()
                    : new HttpRefused();
            ListenAddress where = new ListenAddress(url);
            boolean secure = ListenAddress.isSecure(url);
            if (!"grpc-java".equals(System.getProperty(TRANSPORT_PROPERTY))) {
                startHttp2(where, new ProtocolSniffer(() -> httpOnClientPort, HTTP_BODY_FACTOR * maxMessage, secure ? tls : null, logs)
                        .withAccessControl(access).trackingConnections(connections),
                        new GrpcHttp2Connection.Settings(maxMessage, opts.maxConcurrentStreams(), opts.grpcKeepaliveMinTime(),
                                opts.grpcKeepaliveInterval(), opts.grpcKeepaliveTimeout()),
                        services.registry(s -> ServerInterceptors.intercept(s, grpcMetrics, requestStats, offEventLoop)), opts);
                log.info(secure ? "serving client traffic securely" : "serving client traffic insecurely; this is strongly discouraged!",
                        "address", where.display());
                continue;
            }
            NettyServerBuilder b = NettyServerBuilder.forAddress(where.bindAddress())
                    .channelType(loops(where).serverChannelType(where))
                    .bossEventLoopGroup(loops(where).boss())
                    .workerEventLoopGroup(loops(where).workers())
                    .protocolNegotiator(new ProtocolSniffer(() -> httpOnClientPort, HTTP_BODY_FACTOR * maxMessage, secure ? tls : null,
                            logs)
                            .withAccessControl(access).trackingConnections(connections))
                    .maxInboundMessageSize(maxMessage)
                    .directExecutor()
                    .permitKeepAliveTime(opts.grpcKeepaliveMinTime().toNanos(), TimeUnit.NANOSECONDS)
                    .permitKeepAliveWithoutCalls(true)
                    .maxConcurrentCallsPerConnection((int) Math.min(Integer.MAX_VALUE, opts.maxConcurrentStreams()))
                    .handshakeTimeout(1, TimeUnit.DAYS);
            if (!opts.grpcKeepaliveInterval().isZero()) {
                b.keepAliveTime(opts.grpcKeepaliveInterval().toNanos(), TimeUnit.NANOSECONDS);
            }
            if (!opts.grpcKeepaliveTimeout().isZero()) {
                b.keepAliveTimeout(opts.grpcKeepaliveTimeout().toNanos(), TimeUnit.NANOSECONDS);
            }
            if (opts.socketReuseAddress() && !where.isUnix()) {
                b.withOption(ChannelOption.SO_REUSEADDR, true);
            }
            if (opts.socketReusePort() && !where.isUnix()) {
                b.withOption(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
            }
            b.fallbackHandlerRegistry(services.registry(s -> ServerInterceptors.intercept(s, grpcMetrics, requestStats, offEventLoop)));
            try {
                servers.add(b.build().start());
            } catch (IOException e) {
                throw BindFailure.of(where.isUnix(), where.display(), e);
            }
            if (where.isUnix()) {
                where.publish();
                unixSockets.add(where);
            }
            if (secure) {
                log.info("serving client traffic securely", "address", where.display());
            } else {
                log.info("serving client traffic insecurely; this is strongly discouraged!", "address", where.display());
            }
        }
    }

    /** gRPC on Netty's HTTP/2 codec instead of grpc-java's server (docs/decisions.md). */
    private void startHttp2(ListenAddress where, ProtocolSniffer sniffer, GrpcHttp2Connection.Settings settings,
            HandlerRegistry registry, MemberOptions opts) throws IOException {
        ServerBootstrap b = new ServerBootstrap().group(loops(where).boss(), loops(where).workers())
                .channel(loops(where).serverChannelType(where))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(sniffer.newHandlerFor(() -> GrpcHttp2Connection.create(registry, settings, log)));
                    }
                });
        if (opts.socketReuseAddress() && !where.isUnix()) {
            b.option(ChannelOption.SO_REUSEADDR, true);
        }
        if (opts.socketReusePort() && !where.isUnix()) {
            b.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
        }
        // the bind's failure is read from its future: sync() would rethrow Netty's native
        // IOException unchecked, past a catch of the runtime ones
        ChannelFuture bound = b.bind(where.bindAddress()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            throw BindFailure.of(where.isUnix(), where.display(), bound.cause());
        }
        http2Listeners.add(bound.channel());
        if (where.isUnix()) {
            where.publish();
            unixSockets.add(where);
        }
    }

    /**
     * Closes every client connection at its socket, from the pipeline's first handler on: the
     * HTTP/2 handler's own close would send GOAWAY and wait for the open streams, and watches
     * never end by themselves.
     */
    private void closeConnections() {
        List<ChannelFuture> closing = new ArrayList<>();
        for (Channel ch : connections) {
            ChannelHandlerContext first = ch.pipeline().firstContext();
            closing.add(first != null ? first.close() : ch.close());
        }
        for (ChannelFuture f : closing) {
            f.awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    static String bindHost(URI url) {
        return "localhost".equals(url.getHost()) ? "127.0.0.1" : url.getHost();
    }

    private static final class Endpoints implements HttpHandler.Endpoints {
        private final EtcdServer server;
        private final ClientServices services;

        private final HealthChecks livez;
        private final HealthChecks readyz;

        Endpoints(EtcdServer server, ClientServices services, LogSink logs) {
            this.server = server;
            this.services = services;
            // etcd 3.6's checks (etcdhttp's installLivezEndpoints, installReadyzEndpoints)
            livez = new HealthChecks("livez", logs).add("serializable_read", this::serializableRead);
            readyz = new HealthChecks("readyz", logs)
                    .add("data_corruption", this::corruption)
                    .add("serializable_read", this::serializableRead)
                    .add("linearizable_read", this::linearizableRead)
                    .add("non_learner", this::nonLearner);
        }

        @Override
        public CompletableFuture<HttpHandler.Health> health(boolean serializable, List<String> exclude) {
            return check(serializable, exclude).whenComplete((h, err) -> {
                if (h != null && h.reason().isEmpty()) {
                    server.metrics().healthSuccess.inc();
                } else {
                    server.metrics().healthFailures.inc();
                }
            });
        }

        private CompletableFuture<HttpHandler.Health> check(boolean serializable, List<String> exclude) {
            String reason = server.memberStatus().leader() != 0 ? "" : "RAFT NO LEADER";
            for (var a : server.memberStatus().alarms()) {
                if (!exclude.contains(a.getAlarm().name())) {
                    reason = "ALARM " + a.getAlarm().name();
                }
            }
            if (!reason.isEmpty() || serializable) {
                return CompletableFuture.completedFuture(HttpHandler.Health.of(reason));
            }
            // The read completes on another thread; no event loop waits for it.
            return server.linearizableBarrier()
                    .orTimeout(server.config().electionMillis() * 2, TimeUnit.MILLISECONDS)
                    .handle((x, err) -> HttpHandler.Health.of(err == null ? "" : "RANGE ERROR"));
        }

        @Override
        public String version() {
            return Versions.json(server.memberStatus().clusterVersion());
        }

        @Override
        public String metrics() {
            // the gRPC families list every method of every service, as etcd's do
            services.all();
            return server.metrics().render(server.memberStatus().metricsGauges());
        }

        private CompletableFuture<String> serializableRead() {
            return server.kv().range(Caller.ANONYMOUS, RangeRequest.newBuilder()
                            .setKey(ByteString.copyFromUtf8("health")).setSerializable(true).build())
                    .handle((r, err) -> err == null ? "" : String.valueOf(err.getMessage()));
        }

        private CompletableFuture<String> linearizableRead() {
            return server.linearizableBarrier()
                    .orTimeout(server.config().electionMillis() * 2, TimeUnit.MILLISECONDS)
                    .handle((x, err) -> err == null ? "" : err instanceof TimeoutException
                            || err.getCause() instanceof TimeoutException
                            ? "etcdserver: request timed out" : String.valueOf(err.getMessage()));
        }

        private CompletableFuture<String> corruption() {
            boolean corrupt = server.memberStatus().alarms().stream()
                    .anyMatch(a -> a.getAlarm() == AlarmType.CORRUPT);
            return CompletableFuture.completedFuture(corrupt ? "alarm activated: CORRUPT" : "");
        }

        @Override
        public HealthChecks livez() {
            return livez;
        }

        @Override
        public HealthChecks readyz() {
            return readyz;
        }

        /** etcd 3.6's learnerCheck: a learner serves no client requests but serializable reads, so it is not ready. */
        private CompletableFuture<String> nonLearner() {
            return CompletableFuture.completedFuture(server.memberStatus().isLearner() ? "not supported for learner" : "");
        }
    }

    @Override
    public void close() {
        metricsListeners.close();
        httpListeners.close();
        for (Channel listener : http2Listeners) {
            listener.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        // Stop accepting, then drop every client connection as etcd's gRPC server stops: clients
        // see UNAVAILABLE and resume their streams elsewhere (shutdownNow would cancel them).
        for (Server s : servers) {
            s.shutdown();
        }
        GrpcHttp2Connection.goingAway(connections); // grpc-java's servers have sent theirs
        closeConnections();
        for (Server s : servers) {
            s.shutdownNow();
        }
        if (gatewayChannel != null) {
            gatewayChannel.close();
        }
        handlers.shutdownNow();
        for (Server s : servers) {
            try {
                s.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (unixLoops != null) {
            unixLoops.shutdown(0, 2);
        }
        unixSockets.forEach(ListenAddress::release);
    }
}
