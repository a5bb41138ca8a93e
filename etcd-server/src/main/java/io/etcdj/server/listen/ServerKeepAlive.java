package io.etcdj.server.listen;

import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * gRPC keep-alive on one server connection, both ways, as etcd's flags set it: after
 * {@code --grpc-keepalive-interval} without a frame from the client the server pings it, and
 * closes the connection when nothing arrives within {@code --grpc-keepalive-timeout}; the
 * client's own pings are policed by {@link PingStrikes} ({@code --grpc-keepalive-min-time}).
 * Runs on the connection's event loop.
 */
final class ServerKeepAlive {
    /** What the connection does for it. */
    interface Connection {
        void ping(long payload);

        /** GOAWAY ENHANCE_YOUR_CALM "too_many_pings", then close. */
        void tooManyPings();

        /** The client did not answer in time: close. */
        void unanswered();
    }

    /**
     * The three flags, in nanoseconds; an interval or timeout of 0 turns the server's pings off.
     */
    record Settings(long minTimeNanos, long intervalNanos, long timeoutNanos) {
        /** etcd's defaults: 5 s, 2 h, 20 s. */
        static final Settings ETCD_DEFAULTS = new Settings(TimeUnit.SECONDS.toNanos(5), TimeUnit.HOURS.toNanos(2),
                TimeUnit.SECONDS.toNanos(20));

        boolean serverPings() {
            return intervalNanos > 0 && timeoutNanos > 0;
        }
    }

    private final Settings settings;
    private final PingStrikes strikes;
    private final Connection connection;
    private ChannelHandlerContext ctx;
    private long lastReadNanos;
    private long pingSentNanos;
    private boolean awaitingAnswer;
    private ScheduledFuture<?> timer;

    ServerKeepAlive(Settings settings, Connection connection) {
        this.settings = settings;
        this.strikes = new PingStrikes(settings.minTimeNanos());
        this.connection = connection;
    }

    void start(ChannelHandlerContext context) {
        this.ctx = context;
        lastReadNanos = System.nanoTime();
        if (settings.serverPings()) {
            schedule(settings.intervalNanos());
        }
    }

    void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** Any frame from the client: the connection is alive. */
    void read() {
        lastReadNanos = System.nanoTime();
    }

    /** The server sent the client headers or data. */
    void wrote() {
        strikes.forgive();
    }

    /** The client pinged. */
    void pingRead() {
        if (!strikes.pingAcceptable(System.nanoTime())) {
            connection.tooManyPings();
        }
    }

    private void schedule(long delayNanos) {
        timer = ctx.executor().schedule(this::check, Math.max(delayNanos, 1), TimeUnit.NANOSECONDS);
    }

    private void check() {
        long now = System.nanoTime();
        if (awaitingAnswer) {
            if (lastReadNanos - pingSentNanos >= 0) {
                awaitingAnswer = false; // answered (or any frame came): alive
            } else {
                timer = null;
                connection.unanswered();
                return;
            }
        }
        long idle = now - lastReadNanos;
        if (idle < settings.intervalNanos()) {
            schedule(settings.intervalNanos() - idle);
            return;
        }
        awaitingAnswer = true;
        pingSentNanos = now;
        connection.ping(now);
        schedule(settings.timeoutNanos());
    }
}
