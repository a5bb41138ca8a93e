package io.etcdj.server.tls;

import io.netty.handler.codec.DecoderException;
import java.util.Locale;

/**
 * Turns the JDK's handshake exceptions into the short texts etcd (Go's crypto/tls) logs for a
 * rejected connection, e.g. "tls: client didn't provide a certificate". Unknown ones keep the
 * JDK's message behind "tls: ".
 */
public final class HandshakeFailures {
    private HandshakeFailures() {
    }

    public static String describe(Throwable cause) {
        Throwable t = cause;
        while (t instanceof DecoderException && t.getCause() != null) {
            t = t.getCause();
        }
        String msg = t == null || t.getMessage() == null ? "" : t.getMessage();
        if (msg.isBlank()) {
            return "tls: handshake failed";
        }
        String lower = msg.toLowerCase(Locale.ROOT);
        if (msg.equals("client certificate authentication failed") || msg.startsWith("transport: certificate serial ")
                || msg.startsWith("open ") || msg.startsWith("x509: certificate is valid for ") || msg.startsWith("tls: \"")) {
            return msg; // etcd's own checks (allowed names, revocation list), worded as etcd words them
        }
        if (lower.contains("empty client certificate chain")) {
            return "tls: client didn't provide a certificate";
        }
        if (lower.contains("pkix path building failed") || lower.contains("unable to find valid certification path")) {
            return "tls: failed to verify client certificate: x509: certificate signed by unknown authority";
        }
        if (lower.contains("validity check failed") || lower.contains("certificate expired")
                || lower.contains("not yet valid")) {
            return "tls: failed to verify client certificate: x509: certificate has expired or is not yet valid";
        }
        if (lower.contains("extended key usage") || lower.contains("keyusage")) {
            return "tls: failed to verify client certificate: x509: certificate specifies an incompatible key usage";
        }
        if (lower.contains("no cipher suites in common") || lower.contains("no appropriate cipher suite")) {
            return "tls: no cipher suite supported by both client and server";
        }
        if (lower.contains("is not enabled or supported in server context") || lower.contains("no appropriate protocol")) {
            return "tls: client offered only unsupported versions (" + msg + ")";
        }
        if (lower.contains("unsupported or unrecognized ssl message") || lower.startsWith("not an ssl/tls record")) {
            return "tls: first record does not look like a TLS handshake";
        }
        if (lower.startsWith("received fatal alert: ")) {
            return "remote error: tls: " + alert(msg.substring("received fatal alert: ".length()));
        }
        if (lower.contains("insufficient buffer remaining for aead")) {
            // The client gave up mid-handshake and sent an alert the engine cannot read: in
            // practice a client that does not trust this server's certificate.
            return "remote error: tls: client aborted the handshake (it may not trust the server certificate)";
        }
        return "tls: " + msg;
    }

    /** Go's names for the alerts clients send most. */
    private static String alert(String jdkName) {
        return switch (jdkName) {
            case "unknown_ca" -> "unknown certificate authority";
            // the JDK's alert for a certificate its trust manager refused, where Go's crypto/tls
            // sends bad_certificate (Go sends no certificate_unknown): etcd's text for the refusal
            case "certificate_unknown", "bad_certificate" -> "bad certificate";
            case "certificate_expired" -> "expired certificate";
            default -> jdkName.replace('_', ' ');
        };
    }
}
