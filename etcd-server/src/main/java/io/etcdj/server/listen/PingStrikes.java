package io.etcdj.server.listen;

/**
 * The server's side of gRPC keep-alive policing ({@code --grpc-keepalive-min-time}): a client may
 * ping at most once per {@code minTimeNanos}; the third ping too soon (etcd's gRPC server, like
 * grpc-java's, allows two strikes) ends the connection with GOAWAY ENHANCE_YOUR_CALM
 * "too_many_pings". Sending the client headers or data forgives the strikes, as both servers do:
 * a busy connection's pings are not counted against it. Times are the caller's (nanoTime), so
 * that a test decides them.
 */
final class PingStrikes {
    static final int MAX_STRIKES = 2;

    private final long minTimeNanos;
    private boolean anyValid;
    private long lastValidPing;
    private int strikes;

    PingStrikes(long minTimeNanos) {
        this.minTimeNanos = minTimeNanos;
    }

    /** A ping arrived at {@code now}: false when the connection must end. */
    boolean pingAcceptable(long now) {
        if (!anyValid || now - lastValidPing >= minTimeNanos) {
            anyValid = true;
            lastValidPing = now;
            return true;
        }
        strikes++;
        return strikes <= MAX_STRIKES;
    }

    /** The server sent headers or data: the next ping is welcome whenever it comes. */
    void forgive() {
        anyValid = false;
        strikes = 0;
    }
}
