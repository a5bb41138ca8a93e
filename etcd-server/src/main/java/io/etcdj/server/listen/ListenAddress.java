package io.etcdj.server.listen;

import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Logger;

/**
 * One URL's socket: {@code http(s)://host:port} is TCP on that host ("localhost" binds the IPv4
 * loopback), {@code unix(s)://host:port} a unix domain socket whose file is named
 * {@code host:port} (plus the URL's path, if any) as etcd names it, relative to the working
 * directory. The {@code s} schemes add TLS on top; this class only says where the bytes go.
 */
public record ListenAddress(URI url) {
    /**
     * gRPC asks every connection for TCP keep-alives; a unix socket has no such option and Netty
     * warns about it on each connection. The loggers are held here so the filter stays on them.
     */
    private static final List<Logger> BOOTSTRAP_LOGGERS = List.of(
            Logger.getLogger("io.netty.bootstrap.Bootstrap"),
            Logger.getLogger("io.netty.bootstrap.ServerBootstrap"));

    static {
        for (Logger l : BOOTSTRAP_LOGGERS) {
            l.setFilter(r -> r.getMessage() == null || !r.getMessage().startsWith("Unknown channel option 'SO_KEEPALIVE'"));
        }
    }

    public boolean isUnix() {
        return isUnix(url);
    }

    public static boolean isUnix(URI url) {
        String s = url.getScheme();
        return "unix".equalsIgnoreCase(s) || "unixs".equalsIgnoreCase(s);
    }

    /** https or unixs: the listener speaks TLS. */
    public static boolean isSecure(URI url) {
        String s = url.getScheme();
        return "https".equalsIgnoreCase(s) || "unixs".equalsIgnoreCase(s);
    }

    /** The unix socket's file, as etcd names it. */
    public Path socketFile() {
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        return Path.of(url.getRawAuthority() + path);
    }

    /** How logs and errors name the address: host:port, or the socket file. */
    public String display() {
        return isUnix() ? socketFile().toString() : url.getHost() + ":" + url.getPort();
    }

    /**
     * The address to bind. A unix socket is bound under a temporary name next to its own and
     * {@link #publish() published} once listening: Netty (4.1, kept for 4.2) deletes the file of an accepted
     * connection's local address when that connection closes, which for a unix listener is the
     * listener's own file, so the first client to disconnect would make it unreachable. Bound
     * under a name that is gone by then, the deletion finds nothing. A file left at the real name
     * by an earlier run is removed first, as etcd does; nothing but a socket is removed.
     */
    public SocketAddress bindAddress() throws IOException {
        if (isUnix()) {
            removeStaleSocket(socketFile());
            Path temp = bindingFile();
            removeStaleSocket(temp);
            return UnixDomainSocketAddress.of(temp);
        }
        return new InetSocketAddress(bindHost(), url.getPort());
    }

    /** Gives a bound unix socket its real name (a second link to it) and drops the temporary one. */
    public void publish() throws IOException {
        if (isUnix()) {
            Path temp = bindingFile();
            Files.createLink(socketFile(), temp);
            Files.delete(temp);
        }
    }

    private Path bindingFile() {
        Path file = socketFile();
        Path dir = file.getParent() == null ? Path.of("") : file.getParent();
        return dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + ".bind");
    }

    private static void removeStaleSocket(Path file) throws IOException {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file)
                && !Files.isDirectory(file) && !Files.isSymbolicLink(file)) {
            Files.delete(file);
        }
    }

    /** The address to dial. */
    public SocketAddress dialAddress() {
        return isUnix() ? UnixDomainSocketAddress.of(socketFile()) : new InetSocketAddress(bindHost(), url.getPort());
    }

    public Class<? extends ServerChannel> serverChannelType() {
        return isUnix() ? NioServerDomainSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends Channel> channelType() {
        return isUnix() ? NioDomainSocketChannel.class : NioSocketChannel.class;
    }

    /** Removes a unix socket's file once its listener is closed (etcd's listener does). */
    public void release() {
        if (isUnix()) {
            try {
                Files.deleteIfExists(socketFile());
            } catch (IOException e) {
                // best effort: the next bind removes a stale socket file anyway
            }
        }
    }

    private String bindHost() {
        return "localhost".equals(url.getHost()) ? "127.0.0.1" : url.getHost();
    }
}
