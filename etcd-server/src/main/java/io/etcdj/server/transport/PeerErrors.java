package io.etcdj.server.transport;

import io.etcdj.server.tls.HandshakeFailures;
import javax.net.ssl.SSLException;

/**
 * The text logged for a failed call to a peer. A TLS failure is worded as Go's crypto/tls words it
 * (e.g. "remote error: tls: bad certificate" when the peer refused this member's certificate), as
 * operators grep etcd's logs for it; gRPC's own status ("UNAVAILABLE: ssl exception") says less.
 */
final class PeerErrors {
    private PeerErrors() {
    }

    static String text(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return HandshakeFailures.describe(t);
            }
        }
        return String.valueOf(error.getMessage());
    }
}
