package io.etcdj.server.embed;

import io.etcdj.server.gateway.HttpHandler;
import io.etcdj.server.listen.BindFailure;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.tls.TlsSides;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The --listen-metrics-urls listeners: plain HTTP/1.1 (TLS with the client port's certificate for
 * https URLs) serving /metrics, /health, /livez and /readyz, and nothing of the gateway.
 */
final class MetricsListeners implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** Made by the first listener: a member without --listen-metrics-urls spends nothing on NIO's loop (~9 ms of its start). */
    private EventLoopGroup loops;
    private final List<Channel> channels = new ArrayList<>();

    MetricsListeners(LogSink logs) {
        this.log = logs.logger("embed/etcd");
    }

    synchronized void start(List<URI> urls, HttpHandler.Endpoints endpoints, SslContext tls) throws IOException {
        if (urls.isEmpty()) {
            return;
        }
        HttpHandler handler = new HttpHandler(null, null, endpoints);
        if (loops == null) {
            loops = new NioEventLoopGroup(1, new DefaultThreadFactory("metrics-io", true));
        }
        for (URI url : urls) {
            boolean secure = TlsSides.isHttps(url);
            if (secure && tls == null) {
                throw new IOException("--listen-metrics-urls " + url + " needs the client TLS settings (--cert-file, --key-file or "
                        + "--auto-tls)");
            }
            ServerBootstrap b = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (secure) {
                                ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024), handler);
                        }
                    });
            try {
                channels.add(b.bind(new InetSocketAddress(ClientListeners.bindHost(url), url.getPort())).sync().channel());
            } catch (Exception e) {
                throw BindFailure.of(false, url.getHost() + ":" + url.getPort(), e);
            }
            log.info("serving metrics", "address", url.toString());
        }
    }

    @Override
    public synchronized void close() {
        for (Channel c : channels) {
            c.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        if (loops != null) {
            loops.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }
}
