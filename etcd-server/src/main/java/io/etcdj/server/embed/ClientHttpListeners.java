package io.etcdj.server.embed;

import io.etcdj.server.gateway.AccessControl;
import io.etcdj.server.listen.BindFailure;
import io.etcdj.server.listen.ListenAddress;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The --listen-client-http-urls listeners (etcd 3.6): HTTP/1.1 only (TLS with the client
 * certificate for https URLs), serving the gateway, /health, /livez, /readyz, /version and
 * /metrics behind the same access control as the client port; no gRPC.
 */
final class ClientHttpListeners implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final EventLoopGroup loops = new NioEventLoopGroup(0, new DefaultThreadFactory("client-http-io", true));
    private final List<Channel> channels = new ArrayList<>();
    private final List<ListenAddress> unixSockets = new ArrayList<>();

    ClientHttpListeners(LogSink logs) {
        this.log = logs.logger("embed/serve");
    }

    void start(List<URI> urls, ChannelHandler http, AccessControl access, SslContext tls, int maxContentBytes)
            throws IOException {
        for (URI url : urls) {
            ListenAddress where = new ListenAddress(url);
            boolean secure = ListenAddress.isSecure(url);
            if (secure && tls == null) {
                throw new IOException("TLS key/cert (--cert-file, --key-file) must be provided for client url "
                        + url + " with HTTPS scheme");
            }
            ServerBootstrap b = new ServerBootstrap().group(loops).channel(where.serverChannelType())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (secure) {
                                ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(maxContentBytes), access, http);
                        }
                    });
            try {
                channels.add(b.bind(where.bindAddress()).sync().channel());
                if (where.isUnix()) {
                    where.publish();
                    unixSockets.add(where);
                }
            } catch (Exception e) {
                throw BindFailure.of(where.isUnix(), where.display(), e);
            }
            log.info(secure ? "serving HTTP client traffic securely"
                    : "serving HTTP client traffic insecurely; this is strongly discouraged!",
                    "address", where.display());
        }
    }

    @Override
    public void close() {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        unixSockets.forEach(ListenAddress::release);
    }
}
