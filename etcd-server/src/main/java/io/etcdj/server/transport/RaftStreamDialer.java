package io.etcdj.server.transport;

import io.etcdj.peerpb.StreamHello;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.listen.ListenAddress;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLParameters;

/**
 * Opens Raft streams for a transport: a connection of its own per peer, on the transport's event
 * loops (its TCP loops, epoll where Netty's native transport loads; NIO for unix sockets), with its
 * TLS (the peer's name checked as gRPC's client checks it) and source address; a keep-alive frame
 * when the stream has been idle for a third of the read timeout, as etcd's stream writer sends one.
 * A plaintext TCP stream comes with a {@link DirectSocket} made with its channel, which the
 * stream's caller writes to ({@link RaftStream}). The HTTP/1.1 requests of {@link PeerHttpClient}
 * connect the same way.
 */
final class RaftStreamDialer implements PeerClient.StreamDialer {
    /** Netty's default TLS handshake timeout, on top of the dial timeout. */
    private static final long TLS_HANDSHAKE_MILLIS = 10_000;

    private final Supplier<PeerLinks> links;
    private final Supplier<IoLoops> tcpLoops;
    private final Supplier<EventLoopGroup> unixLoops;
    private final Supplier<SslContext> tls;

    /** Suppliers, read at each dial: the transport's settings may change until it listens, and its loops are made on first use. */
    RaftStreamDialer(Supplier<PeerLinks> links, Supplier<IoLoops> tcpLoops, Supplier<EventLoopGroup> unixLoops,
                     Supplier<SslContext> tls) {
        this.links = links;
        this.tcpLoops = tcpLoops;
        this.unixLoops = unixLoops;
        this.tls = tls;
    }

    /**
     * Opens a Raft stream to {@code peerUrl} with this transport's loops, TLS and source address, and
     * sends its preface and hello; blocks until then (at most the dial timeout, and the TLS handshake's).
     */
    @Override
    public RaftStream open(String peerUrl, StreamHello hello) throws IOException {
        RaftStream.Inbound inbound = RaftStream.inbound();
        long keepAlive = links.get().readTimeout().toMillis() / 3;
        URI u = URI.create(peerUrl);
        Writable plaintext = ListenAddress.isUnix(u) || ListenAddress.isSecure(u) ? null : writable(tcpLoops.get());
        Channel ch;
        try {
            ch = connect(peerUrl, p -> {
                p.addLast(RaftStreamFrames.decoder());
                if (keepAlive > 0) {
                    p.addLast(new IdleStateHandler(0, keepAlive, 0, TimeUnit.MILLISECONDS));
                }
                p.addLast(inbound);
            }, plaintext != null ? plaintext.channel() : null);
        } catch (IOException e) {
            if (plaintext != null) {
                plaintext.socket().close(); // the channel is closed; the stream's own hold on the socket goes too
            }
            throw e;
        }
        return new RaftStream(ch, plaintext != null ? plaintext.socket() : null).open(inbound, hello);
    }

    /** A plaintext TCP channel of {@code loops}' type, not yet registered, and the socket its Raft turns write to. */
    private record Writable(Channel channel, DirectSocket socket) {
    }

    private static Writable writable(IoLoops loops) throws IOException {
        if (!loops.isNative()) {
            SocketChannel jdk = SocketChannel.open();
            return new Writable(new NioSocketChannel(jdk), DirectSocket.of(jdk));
        }
        EpollSocketChannel epoll = new EpollSocketChannel();
        try {
            return new Writable(epoll, DirectSocket.duplicateOf(epoll));
        } catch (IOException | RuntimeException | LinkageError e) {
            epoll.unsafe().closeForcibly();
            throw e;
        }
    }

    /**
     * A connection to {@code peerUrl} with this transport's loops, TLS and source address, its
     * pipeline made by {@code handlers} behind TLS; blocks until it is connected and its TLS
     * handshake done (at most the dial timeout, and the handshake's).
     */
    Channel connect(String peerUrl, Consumer<ChannelPipeline> handlers) throws IOException {
        return connect(peerUrl, handlers, null);
    }

    /** The same; on {@code made} (a TCP channel of the TCP loops' type, not yet registered) when not null. */
    private Channel connect(String peerUrl, Consumer<ChannelPipeline> handlers, Channel made)
            throws IOException {
        PeerLinks links = this.links.get();
        URI u = URI.create(peerUrl);
        Bootstrap b = new Bootstrap().option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) links.dialTimeout().toMillis());
        SocketAddress remote;
        String host = null;
        if (ListenAddress.isUnix(u)) {
            ListenAddress where = new ListenAddress(u);
            b.group(unixLoops.get()).channel(where.channelType());
            remote = where.dialAddress();
        } else {
            IoLoops loops = tcpLoops.get();
            b.group(loops.workers());
            if (made != null) {
                b.channelFactory(() -> made);
            } else {
                b.channel(loops.channelType());
            }
            b.option(ChannelOption.TCP_NODELAY, true);
            host = "localhost".equals(u.getHost()) ? "127.0.0.1" : u.getHost();
            remote = new InetSocketAddress(host, u.getPort());
        }
        SslHandler ssl = ListenAddress.isSecure(u) ? tlsTo(host, u.getPort()) : null;
        b.handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (ssl != null) {
                    ch.pipeline().addLast(ssl);
                }
                handlers.accept(ch.pipeline());
            }
        });
        String local = links.localAddress();
        ChannelFuture connecting = local != null && host != null ? b.connect(remote, new InetSocketAddress(local, 0)) : b.connect(remote);
        Channel ch = connecting.channel();
        try {
            long millis = links.dialTimeout().toMillis() + TLS_HANDSHAKE_MILLIS;
            await(connecting, millis);
            if (ssl != null) {
                await(ssl.handshakeFuture(), millis);
            }
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** A TLS handler towards {@code host} (null: a unix socket, whose name no certificate carries) that checks the peer's name. */
    private SslHandler tlsTo(String host, int port) {
        SslContext tls = this.tls.get();
        SslHandler ssl = host == null ? tls.newHandler(ByteBufAllocator.DEFAULT) : tls.newHandler(ByteBufAllocator.DEFAULT, host, port);
        if (host != null) {
            SSLParameters params = ssl.engine().getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            ssl.engine().setSSLParameters(params);
        }
        return ssl;
    }

    private static void await(Future<?> f, long millis) throws IOException {
        try {
            if (!f.await(millis, TimeUnit.MILLISECONDS)) {
                f.cancel(false);
                throw new IOException("dial timed out after " + millis + "ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while dialing", e);
        }
        if (!f.isSuccess()) {
            Throwable cause = f.cause();
            throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause.getMessage()), cause);
        }
    }
}
