package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class HandshakeFailuresTest {
    @Test
    void commonJdkFailuresReadLikeGo() {
        assertEquals("tls: client didn't provide a certificate",
                HandshakeFailures.describe(new DecoderException(new SSLHandshakeException("Empty client certificate chain"))));
        assertEquals("tls: failed to verify client certificate: x509: certificate signed by unknown authority",
                HandshakeFailures.describe(new SSLHandshakeException("PKIX path building failed: "
                        + "unable to find valid certification path to requested target")));
        assertEquals("remote error: tls: unknown certificate authority",
                HandshakeFailures.describe(new SSLHandshakeException("Received fatal alert: unknown_ca")));
        // a JDK peer refuses a certificate with certificate_unknown where Go sends bad_certificate
        assertEquals("remote error: tls: bad certificate",
                HandshakeFailures.describe(new SSLHandshakeException("Received fatal alert: certificate_unknown")));
        assertEquals("remote error: tls: bad certificate",
                HandshakeFailures.describe(new SSLHandshakeException("Received fatal alert: bad_certificate")));
        assertEquals("tls: first record does not look like a TLS handshake",
                HandshakeFailures.describe(new SSLHandshakeException("Unsupported or unrecognized SSL message")));
        assertEquals("tls: first record does not look like a TLS handshake", HandshakeFailures.describe(
                new NotSslRecordException("not an SSL/TLS record: 474554202f")));
        assertEquals("tls: something new", HandshakeFailures.describe(new SSLHandshakeException("something new")));
        assertEquals("tls: handshake failed", HandshakeFailures.describe(new SSLHandshakeException(null)));
    }
}
