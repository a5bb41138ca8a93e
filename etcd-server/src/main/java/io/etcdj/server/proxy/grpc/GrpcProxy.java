package io.etcdj.server.proxy.grpc;

import com.sun.net.httpserver.HttpServer;
import io.etcdj.certs.TlsFiles;
import io.etcdj.client.Endpoint;
import io.etcdj.server.log.Log;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyServerBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running gRPC proxy: the upstream channel, the gRPC server on --listen-addr with the KV, Watch
 * and (with --resolver-prefix) Cluster proxies plus the raw forwarder for everything else, the
 * registration, and the optional /metrics listener.
 */
final class GrpcProxy implements AutoCloseable {
    private static final Log LOG = Log.get("etcdmain/grpc_proxy.go");

    /** What the command line decided. */
    record Options(List<Endpoint> endpoints, UpstreamChannel.Tls upstreamTls, String listenAddr, String advertiseUrl,
            String namespace, String resolverPrefix, long resolverTtl, String metricsAddr, String certFile,
            String keyFile, String trustedCaFile, int maxRecvBytes, int maxConcurrentStreams) {
    }

    private final ManagedChannel channel;
    private final Server server;
    private final WatchProxy watch;
    private final Registration registration;
    private final HttpServer metricsServer;

    private GrpcProxy(ManagedChannel channel, Server server, WatchProxy watch, Registration registration,
            HttpServer metricsServer) {
        this.channel = channel;
        this.server = server;
        this.watch = watch;
        this.registration = registration;
        this.metricsServer = metricsServer;
    }

    static GrpcProxy start(Options o) throws IOException {
        InetSocketAddress listen = address(o.listenAddr());
        ManagedChannel channel = UpstreamChannel.open(o.endpoints(), o.upstreamTls());
        try {
            Namespace ns = new Namespace(o.namespace());
            ProxyMetrics metrics = new ProxyMetrics();
            WatchProxy watch = new WatchProxy(channel, ns, metrics);
            Registration registration = o.resolverPrefix().isEmpty() ? null
                    : new Registration(channel, ns, o.resolverPrefix());
            NettyServerBuilder b = NettyServerBuilder.forAddress(listen)
                    .addService(new KvProxy(channel, ns, metrics))
                    .addService(watch)
                    .fallbackHandlerRegistry(new RawForwarder(channel))
                    .intercept(ForwardedHeaders.capture())
                    .maxInboundMessageSize(o.maxRecvBytes())
                    .maxConcurrentCallsPerConnection(o.maxConcurrentStreams());
            if (!ns.isEmpty()) {
                b.addService(new LeaseTimeToLiveProxy(channel, ns).bind());
            }
            if (registration != null) {
                b.addService(new ClusterProxy(channel, registration));
            }
            if (!o.certFile().isEmpty()) {
                SslContextBuilder ssl = GrpcSslContexts.configure(SslContextBuilder.forServer(
                        new TlsFiles(Path.of(o.certFile()), Path.of(o.keyFile()), null).keyManagerFactory()));
                if (!o.trustedCaFile().isEmpty()) {
                    ssl.trustManager(new File(o.trustedCaFile())).clientAuth(ClientAuth.REQUIRE);
                }
                b.sslContext(ssl.build());
            }
            Server server = b.build().start();
            LOG.info("listening for gRPC proxy client requests", "address", o.listenAddr());
            HttpServer metricsServer = null;
            if (!o.metricsAddr().isEmpty()) {
                metricsServer = metrics(o.metricsAddr(), metrics);
                LOG.info("gRPC proxy listening for metrics", "address", o.metricsAddr());
            }
            if (registration != null) {
                registration.start(o.advertiseUrl(), o.resolverTtl());
            }
            LOG.info("started gRPC proxy", "address", o.listenAddr());
            return new GrpcProxy(channel, server, watch, registration, metricsServer);
        } catch (IOException | RuntimeException e) {
            channel.shutdownNow();
            throw e;
        }
    }

    private static InetSocketAddress address(String hostPort) {
        URI u = URI.create(hostPort.contains("://") ? hostPort : "tcp://" + hostPort);
        if (u.getHost() == null || u.getPort() < 0) {
            throw new IllegalArgumentException("invalid listen address " + hostPort);
        }
        return new InetSocketAddress(u.getHost(), u.getPort());
    }

    private static HttpServer metrics(String addr, ProxyMetrics metrics) throws IOException {
        HttpServer http = HttpServer.create(address(addr), 0);
        http.createContext("/metrics", ex -> {
            byte[] body = metrics.render().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        });
        http.start();
        return http;
    }

    void awaitTermination() {
        try {
            server.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (registration != null) {
            registration.close();
        }
        if (metricsServer != null) {
            metricsServer.stop(0);
        }
        watch.close();
        server.shutdownNow();
        channel.shutdownNow();
        try {
            server.awaitTermination(2, TimeUnit.SECONDS);
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
