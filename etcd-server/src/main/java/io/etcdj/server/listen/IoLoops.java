package io.etcdj.server.listen;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Event loops and the server channel type that go with them for one kind of listener: Linux's
 * native epoll transport for TCP where its library loads (fewer system calls and no selector
 * garbage per wake-up: the client port's hot path), Java's NIO otherwise and always for unix
 * sockets, whose JDK addresses only NIO channels take. A channel runs only on loops of its own
 * transport, so each kind gets loops of its own.
 */
public final class IoLoops {
    private final boolean epoll;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;

    private IoLoops(boolean epoll, String name, int threads) {
        this.epoll = epoll;
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name + "-accept", true), io);
        this.workers = AnsweringLoop.group(threads, new DefaultThreadFactory(name + "-io", true), io);
    }

    /** {@code threads} loops (0: Netty's default number) for TCP listeners: epoll when the native transport is available. */
    public static IoLoops forTcp(String name, int threads) {
        return new IoLoops(Epoll.isAvailable(), name, threads);
    }

    /** Loops for unix socket listeners (NIO). */
    public static IoLoops forUnix(String name) {
        return new IoLoops(false, name + "-unix", 0);
    }

    public EventLoopGroup boss() {
        return boss;
    }

    public EventLoopGroup workers() {
        return workers;
    }

    /** The server channel type for {@code where} on these loops. */
    public Class<? extends ServerChannel> serverChannelType(ListenAddress where) {
        return epoll && !where.isUnix() ? EpollServerSocketChannel.class : where.serverChannelType();
    }

    /** The client channel type for TCP connections made on these loops. */
    public Class<? extends Channel> channelType() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** Whether these loops run the native transport (logged at start-up). */
    public boolean isNative() {
        return epoll;
    }

    public void shutdown(long quietSeconds, long timeoutSeconds) {
        workers.shutdownGracefully(quietSeconds, timeoutSeconds, TimeUnit.SECONDS);
        boss.shutdownGracefully(quietSeconds, timeoutSeconds, TimeUnit.SECONDS);
    }
}
