package io.etcdj.ctl.warm;

import io.etcdj.ctl.cds.CdsTraining;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The resident server: {@code WarmServer SOCKET IDLE_SECONDS}. Started in the background by the
 * thin client when no server answers. At most one runs per socket (a lock file beside it decides);
 * it answers only its own user, exits after IDLE_SECONDS without calls, and retires as soon as its
 * class path or JDK changed (a new build must never be served by old code).
 */
public final class WarmServer {

    private static final long CHECK_SECONDS = 2;
    private static final int WARM_UP_ROUNDS = 25;
    private static ManagedChannel transportHolder;

    private final Path socket;
    private final long idleMillis;
    private final BuildStamp stamp = BuildStamp.capture();
    private final String java;
    private final AtomicInteger active = new AtomicInteger();
    private volatile long lastCall = System.currentTimeMillis();
    private final Path pidFile;
    private ServerSocketChannel server;
    private FileLock lock;
    private boolean retired;

    private WarmServer(Path socket, long idleMillis) {
        this.socket = socket;
        this.idleMillis = idleMillis;
        this.java = realJava();
        this.pidFile = sibling(".pid");
    }

    /** A file beside the socket, named like it: {@code <hash>.lock}, {@code <hash>.pid}. */
    private Path sibling(String suffix) {
        return socket.resolveSibling(socket.getFileName().toString().replaceFirst("\\.sock$", "") + suffix);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: WarmServer SOCKET IDLE_SECONDS");
            System.exit(2);
        }
        new WarmServer(Path.of(args[0]).toAbsolutePath(), Long.parseLong(args[1]) * 1000).serve();
    }

    private void serve() throws IOException, InterruptedException {
        FileChannel lockChannel = FileChannel.open(sibling(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        lock = lockChannel.tryLock();
        if (lock == null) {
            return; // another server for this socket is starting or running
        }
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        // For bin/etcdj-warm (status, stop); SIGTERM retires the server like an idle timeout.
        Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
        Runtime.getRuntime().addShutdownHook(new Thread(this::retire, "warm-retire"));
        StdioRouter.install();
        keepTransportResources();
        Thread warmUp = new Thread(WarmServer::warmUp, "warm-up");
        warmUp.setDaemon(true);
        warmUp.setPriority(Thread.MIN_PRIORITY);
        warmUp.start();
        ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "warm-checks");
            t.setDaemon(true);
            return t;
        });
        checks.scheduleWithFixedDelay(this::check, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
        String me = System.getProperty("user.name");
        while (true) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException closed) {
                break; // retired
            }
            UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (!peer.user().getName().equals(me)) {
                ch.close(); // the directory is private already; this is the second lock
                continue;
            }
            active.incrementAndGet();
            lastCall = System.currentTimeMillis();
            Thread t = new Thread(new WarmCall(ch, this), "warm-call");
            t.setDaemon(true);
            t.start();
        }
        // Retired: let running calls (a watch, a lock) finish, then go.
        while (active.get() > 0) {
            Thread.sleep(200);
        }
        System.exit(0);
    }

    /**
     * Loads and compiles the common command path beside the first calls (which are served at once),
     * so that calls soon run compiled code: a few dozen rounds of put and get in every format.
     */
    private static void warmUp() {
        try {
            for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                CdsTraining.train();
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("warm-up failed (calls still work): " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * gRPC shares one Netty event loop group and executor among channels and tears them down a
     * second after the last channel closes; calls a human types are further apart than that and
     * would each build them anew. A channel that never connects holds them for the server's life.
     */
    private static void keepTransportResources() {
        // Held in a static field: a channel collected unclosed makes gRPC log an error.
        transportHolder = NettyChannelBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 9))
                .usePlaintext().build();
    }

    void callEnded() {
        lastCall = System.currentTimeMillis();
        active.decrementAndGet();
    }

    /** True when this server must not serve a call whose PATH finds {@code callerJava}. */
    boolean outdatedFor(String callerJava) {
        if (stamp.changed()) {
            return true;
        }
        return !callerJava.isEmpty() && !java.isEmpty() && !callerJava.equals(java);
    }

    private void check() {
        if (stamp.changed() || (active.get() == 0 && System.currentTimeMillis() - lastCall > idleMillis)) {
            retire();
        }
    }

    /** Stops taking calls and frees the socket and lock for a successor; running calls go on. */
    synchronized void retire() {
        if (retired) {
            return;
        }
        retired = true;
        try {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(pidFile);
            server.close();
            lock.release();
            lock.channel().close();
        } catch (IOException e) {
            // Exiting anyway.
        }
    }

    private static String realJava() {
        try {
            return Path.of(System.getProperty("java.home"), "bin", "java").toRealPath().toString();
        } catch (IOException e) {
            return "";
        }
    }
}
