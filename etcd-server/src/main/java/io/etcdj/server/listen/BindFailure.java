package io.etcdj.server.listen;

import java.io.IOException;
import java.net.SocketException;
import java.util.Locale;

/**
 * Why a listener could not start, in Go's words: {@code listen tcp 127.0.0.1:2379: bind: address
 * already in use}, {@code ...: bind: cannot assign requested address} (an address this machine
 * does not have), {@code ...: bind: permission denied} (a port below 1024 without the right), as
 * etcd prints them. The cause is read from the exception the JDK or Netty threw, never assumed.
 */
public final class BindFailure {
    private BindFailure() {
    }

    /**
     * The error for a listener on {@code address} ({@code host:port}, or a socket path when
     * {@code unix}) that failed with {@code cause}; the cause is kept for the stack trace.
     */
    public static IOException of(boolean unix, String address, Throwable cause) {
        return new IOException("listen " + (unix ? "unix " : "tcp ") + address + ": bind: " + reason(cause), cause);
    }

    /**
     * The operating system's reason as Go spells it (lower case, as its syscall errors are):
     * the message of the innermost socket exception in the chain, without Netty's
     * {@code bind(..) failed with error(-98): } prefix; the innermost message of all when no
     * socket exception says more.
     */
    public static String reason(Throwable failure) {
        String socketReason = null;
        String innermost = null;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            String m = t.getMessage();
            if (m == null || m.isBlank()) {
                continue;
            }
            innermost = m;
            if (t instanceof SocketException || t.getClass().getName().endsWith("NativeIoException")) {
                socketReason = m;
            }
        }
        String m = socketReason != null ? socketReason : innermost;
        if (m == null) {
            return failure.getClass().getSimpleName();
        }
        if (socketReason != null && m.lastIndexOf(": ") >= 0) {
            // Netty's native transport: "bind(..) failed with error(-98): Address already in use";
            // the system's own text (strerror) has no colon
            m = m.substring(m.lastIndexOf(": ") + 2);
        }
        if (m.endsWith(" (Bind failed)")) {
            // older JDKs' classic sockets add it; Go does not
            m = m.substring(0, m.length() - " (Bind failed)".length());
        }
        return m.toLowerCase(Locale.ROOT);
    }
}
