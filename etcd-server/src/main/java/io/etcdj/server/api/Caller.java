package io.etcdj.server.api;

import io.etcdj.server.auth.AuthInfo;
import java.util.Objects;

/**
 * Who makes a call and how long it still waits for its answer: what etcd carries in each
 * request's context. The services resolve it once per call ({@link Callers}: from the call's
 * token or client certificate, and its gRPC deadline) and pass it to the member's operations,
 * which never look at gRPC's Context. A proposal waits no longer than the caller's deadline nor
 * than the member's request timeout.
 */
public record Caller(AuthInfo auth, long timeoutNanos) {
    /** The caller set no deadline: the member's request timeout alone applies. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;
    /** A call without credentials or deadline. */
    public static final Caller ANONYMOUS = new Caller(AuthInfo.NONE, NO_DEADLINE);

    public Caller {
        Objects.requireNonNull(auth, "auth");
        timeoutNanos = Math.max(0, timeoutNanos);
    }

    /** {@code auth} without a deadline of its own. */
    public static Caller of(AuthInfo auth) {
        return new Caller(auth, NO_DEADLINE);
    }
}
