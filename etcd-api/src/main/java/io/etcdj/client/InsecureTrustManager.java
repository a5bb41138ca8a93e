package io.etcdj.client;

import java.net.Socket;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Accepts every server certificate and skips host name checks. Used only when the user asked for
 * {@code --insecure-skip-tls-verify}.
 */
final class InsecureTrustManager extends X509ExtendedTrustManager {

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        // Client certificates are not checked by a client.
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        // Verification deliberately skipped.
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        // Client certificates are not checked by a client.
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        // Verification deliberately skipped.
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // Client certificates are not checked by a client.
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // Verification deliberately skipped.
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
