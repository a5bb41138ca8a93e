package io.etcdj.client;

import io.etcdj.api.etcdserverpb.AuthGrpc;
import io.etcdj.api.etcdserverpb.AuthenticateRequest;
import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.v3electionpb.ElectionGrpc;
import io.etcdj.api.v3lockpb.LockGrpc;
import io.grpc.ChannelCredentials;
import io.grpc.ConnectivityState;
import io.grpc.Context;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.AbstractStub;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A connection to an etcd cluster. Unary calls get the command timeout as deadline, wait for a usable
 * endpoint (gRPC fails over along the endpoint list), carry the auth token, and are retried once with
 * a fresh token when the server reports the token invalid. Thread-safe; close it when done.
 */
public final class EtcdClient implements AutoCloseable {
    /** The Go client's unary attempts (clientv3's defaultUnaryMaxRetries). */
    private static final int MAX_AUTH_RETRIES = 100;

    private static volatile boolean ownEventLoops;

    private final ClientConfig config;
    private final ManagedChannel channel;
    /** Null: gRPC's shared event loop. */
    private final EventLoopGroup eventLoop;
    private final AtomicReference<String> token = new AtomicReference<>();
    private final TokenCredentials credentials = new TokenCredentials(token);

    private EtcdClient(ClientConfig config, ManagedChannel channel, EventLoopGroup eventLoop) {
        this.config = config;
        this.channel = channel;
        this.eventLoop = eventLoop;
    }

    /**
     * For a process that exits after its command (etcdctl's Main): each client gets an I/O thread of
     * its own, ended by {@link #close()}. gRPC's shared one outlives the last channel by a second, and
     * a JVM that exits while a thread waits in epoll_wait first waits up to 300 ms for it (HotSpot's
     * exit waits for threads in native code): that was most of a one-shot etcdctl's run. Long-lived
     * processes (the warm server, the shell, tests) keep the shared one, built once.
     */
    public static void useOwnEventLoops() {
        ownEventLoops = true;
    }

    /**
     * Opens a channel (lazily connected) and, when credentials are configured, authenticates.
     *
     * @throws EtcdClientException if authentication fails
     */
    public static EtcdClient connect(ClientConfig config) {
        EventLoopGroup eventLoop = ownEventLoops
                ? new NioEventLoopGroup(1, new DefaultThreadFactory("etcdj-client-io", true)) : null;
        ManagedChannel channel;
        try {
            channel = openChannel(config, eventLoop);
        } catch (RuntimeException e) {
            if (eventLoop != null) {
                eventLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
            throw e;
        }
        EtcdClient client = new EtcdClient(config, channel, eventLoop);
        if (config.user() != null) {
            try {
                client.authenticate();
            } catch (RuntimeException e) {
                client.close();
                throw e;
            }
        }
        return client;
    }

    @SuppressWarnings("deprecation") // nameResolverFactory is the only per-channel resolver hook in grpc-api
    private static ManagedChannel openChannel(ClientConfig config, EventLoopGroup eventLoop) {
        ChannelCredentials creds = config.useTls() ? tlsCredentials(config.tls()) : InsecureChannelCredentials.create();
        // Netty's builder itself: Grpc.newChannelBuilder would first look up every channel provider on
        // the class path, a measurable share of a short-lived etcdctl's start-up (docs/etcdctl.md).
        NettyChannelBuilder builder = NettyChannelBuilder.forTarget(EndpointListResolver.SCHEME + ":///etcd", creds)
                .nameResolverFactory(new EndpointListResolver.Factory(config.endpoints()))
                .keepAliveTime(config.keepAliveTime().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(config.keepAliveTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveWithoutCalls(true)
                .maxInboundMessageSize(config.maxRecvBytes())
                .intercept(new RequestSizeLimit(config.maxRequestBytes()))
                .userAgent("etcdj-client");
        if (config.useTls() && config.serverName() != null) {
            builder.overrideAuthority(config.serverName());
        }
        if (eventLoop != null) {
            builder.eventLoopGroup(eventLoop).channelType(NioSocketChannel.class);
        }
        return builder.build();
    }

    private static ChannelCredentials tlsCredentials(TlsOptions tls) {
        TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
        if (tls.skipVerify()) {
            b.trustManager(new InsecureTrustManager());
        } else if (tls.caFile() != null) {
            try (var ca = open(tls.caFile())) {
                b.trustManager(ca);
            } catch (IOException e) {
                throw new TlsFilesException("failed to parse root certificates from " + tls.caFile(), e);
            }
        }
        if (tls.certFile() != null && tls.keyFile() != null) {
            // PKCS#1 and SEC1 keys (openssl's and cfssl's defaults) become PKCS#8, which the TLS stack reads
            byte[] key;
            try {
                key = PemPrivateKeys.pkcs8Pem(tls.keyFile());
            } catch (NoSuchFileException e) {
                throw new TlsFilesException("open " + tls.keyFile() + ": no such file or directory", e);
            } catch (IOException e) {
                throw new TlsFilesException("tls: failed to parse private key", e);
            }
            try (var ignored = open(tls.certFile())) {
                String mismatch = PemPrivateKeys.mismatch(tls.certFile(), key);
                if (mismatch != null) {
                    throw new TlsFilesException(mismatch, null);
                }
            } catch (IOException e) {
                throw new TlsFilesException("tls: failed to find any PEM data in certificate input", e);
            }
            try (var cert = open(tls.certFile()); var k = new ByteArrayInputStream(key)) {
                b.keyManager(cert, k);
            } catch (IOException | IllegalArgumentException e) {
                throw new TlsFilesException("tls: private key does not match public key", e);
            }
        }
        return b.build();
    }

    /** Opens a TLS file, failing with Go's text when it is missing. */
    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new TlsFilesException("open " + file + ": no such file or directory", e);
        } catch (IOException e) {
            throw new TlsFilesException("open " + file + ": " + e.getMessage(), e);
        }
    }

    public ClientConfig config() {
        return config;
    }

    /** The endpoint used in diagnostics: host:port of the first configured endpoint, without scheme. */
    public String primaryEndpoint() {
        return config.endpoints().get(0).authority();
    }

    /**
     * Gets a token for the configured user. A cluster with authentication off answers "authentication
     * is not enabled": the calls then go without a token, as etcd's Go client lets them (a script's
     * {@code --user} keeps working after {@code auth disable}).
     */
    private void authenticate() {
        AuthenticateRequest req = AuthenticateRequest.newBuilder()
                .setName(config.user()).setPassword(config.password() == null ? "" : config.password()).build();
        try {
            token.set(invokeOnce(AuthGrpc.newBlockingStub(channel), s -> s.authenticate(req), false).getToken());
        } catch (EtcdClientException e) {
            if (!e.isAuthNotEnabled()) {
                throw e;
            }
            token.set(null);
        }
    }

    /**
     * For a stream refused with an expired token before it sent anything (a JWT's {@code ttl} can
     * be a second): gets a new token and says whether the stream is worth opening again.
     */
    public boolean renewTokenAfter(StatusRuntimeException e) {
        String desc = e.getStatus().getDescription();
        if (config.user() == null || desc == null || !desc.endsWith("invalid auth token")) {
            return false;
        }
        authenticate();
        return true;
    }

    public <R> R kv(Function<KVGrpc.KVBlockingStub, R> op) {
        return call(KVGrpc.newBlockingStub(channel), op);
    }

    /**
     * A read that may safely be sent again: when the endpoint drops the call (UNAVAILABLE) it is retried,
     * on whichever endpoint the channel reaches next, until the command timeout expires.
     */
    public <R> R kvRead(Function<KVGrpc.KVBlockingStub, R> op) {
        long deadline = System.nanoTime() + config.commandTimeout().toNanos();
        while (true) {
            try {
                return kv(op);
            } catch (EtcdClientException e) {
                if (e.code() != Status.Code.UNAVAILABLE || System.nanoTime() >= deadline) {
                    throw e;
                }
                backOff();
            }
        }
    }

    public <R> R lease(Function<LeaseGrpc.LeaseBlockingStub, R> op) {
        return call(LeaseGrpc.newBlockingStub(channel), op);
    }

    public <R> R cluster(Function<ClusterGrpc.ClusterBlockingStub, R> op) {
        return call(ClusterGrpc.newBlockingStub(channel), op);
    }

    public <R> R maintenance(Function<MaintenanceGrpc.MaintenanceBlockingStub, R> op) {
        return call(MaintenanceGrpc.newBlockingStub(channel), op);
    }

    public <R> R auth(Function<AuthGrpc.AuthBlockingStub, R> op) {
        return call(AuthGrpc.newBlockingStub(channel), op);
    }

    /** Lock calls block until the lock is held, so they get no deadline. */
    public <R> R lock(Function<LockGrpc.LockBlockingStub, R> op) {
        return invokeWithRefresh(LockGrpc.newBlockingStub(channel), op, true, null);
    }

    /** Election calls may block (campaign), so they get no deadline. */
    public <R> R election(Function<ElectionGrpc.ElectionBlockingStub, R> op) {
        return invokeWithRefresh(ElectionGrpc.newBlockingStub(channel), op, true, null);
    }

    /** Blocking stub with the token but no deadline, for server streams read to the end (snapshot, observe). */
    public MaintenanceGrpc.MaintenanceBlockingStub maintenanceStream() {
        return MaintenanceGrpc.newBlockingStub(channel).withCallCredentials(credentials).withWaitForReady();
    }

    /** Blocking election stub with the token and no deadline, for Observe's server stream. */
    public ElectionGrpc.ElectionBlockingStub electionBlocking() {
        return ElectionGrpc.newBlockingStub(channel).withCallCredentials(credentials).withWaitForReady();
    }

    public ElectionGrpc.ElectionStub electionAsync() {
        return ElectionGrpc.newStub(channel).withCallCredentials(credentials).withWaitForReady();
    }

    public WatchGrpc.WatchStub watchAsync() {
        return WatchGrpc.newStub(channel).withCallCredentials(credentials).withWaitForReady();
    }

    public LeaseGrpc.LeaseStub leaseAsync() {
        return LeaseGrpc.newStub(channel).withCallCredentials(credentials).withWaitForReady();
    }

    private <S extends AbstractStub<S>, R> R call(S stub, Function<S, R> op) {
        return invokeWithRefresh(stub, op, true, config.commandTimeout());
    }

    /**
     * The Go client's unary retry for auth errors: after "invalid auth token" or "revision of auth
     * store is old" (the auth store changed between the server's permission check and the apply,
     * as when users are added while a certificate's user writes) it fetches a new token when it
     * has a user and password and calls again, up to its {@value #MAX_AUTH_RETRIES} attempts.
     */
    private <S extends AbstractStub<S>, R> R invokeWithRefresh(S stub, Function<S, R> op, boolean withToken,
                                                              Duration timeout) {
        for (int attempt = 0; ; attempt++) {
            try {
                return invoke(stub, op, withToken, timeout, attempt);
            } catch (EtcdClientException e) {
                boolean tokenStale = e.isInvalidAuthToken() && config.user() != null;
                if (!(tokenStale || e.isAuthOldRevision()) || attempt + 1 >= MAX_AUTH_RETRIES) {
                    throw e;
                }
                backOff();
                if (config.user() != null) {
                    authenticate();
                }
            }
        }
    }

    private <S extends AbstractStub<S>, R> R invokeOnce(S stub, Function<S, R> op, boolean withToken) {
        return invoke(stub, op, withToken, config.commandTimeout(), 0);
    }

    private <S extends AbstractStub<S>, R> R invoke(S stub, Function<S, R> op, boolean withToken, Duration timeout,
                                                    int attempt) {
        S s = stub.withWaitForReady();
        if (timeout != null) {
            s = s.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        if (withToken) {
            s = s.withCallCredentials(credentials);
        }
        try {
            return op.apply(s);
        } catch (StatusRuntimeException e) {
            Status status = describe(e.getStatus());
            if (!Context.current().isCancelled()) {
                // a call the caller canceled (etcdctl's lock or elect on Ctrl-C) is not a failed attempt
                config.listener().unaryCallFailed(primaryEndpoint(), status, attempt);
            }
            throw EtcdClientException.from(status);
        }
    }

    /** A short pause between retries so a failing endpoint is not hammered. */
    private static void backOff() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdClientException(Status.Code.CANCELLED, "context canceled", e);
        }
    }

    /** Replaces gRPC-Java's deadline text by what Go's balancer reports when no endpoint is usable. */
    private Status describe(Status status) {
        if (status.getCode() == Status.Code.DEADLINE_EXCEEDED
                && channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
            return status.withDescription("latest balancer error: all SubConns are in TransientFailure");
        }
        if (status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
            return status.withDescription("context deadline exceeded");
        }
        if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED && status.getDescription() != null) {
            return MessageSizeTexts.asGo(status);
        }
        return status;
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(1, TimeUnit.SECONDS);
            if (eventLoop != null) {
                eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(1, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            if (eventLoop != null) {
                eventLoop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
            Thread.currentThread().interrupt();
        }
    }
}
