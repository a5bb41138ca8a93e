package io.etcdj.server.tls;

import java.net.Socket;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Accepts any peer certificate, without checking names either: what etcd does when members dial
 * each other with --peer-auto-tls, where every certificate is self-signed. Extending the
 * "extended" trust manager keeps the JDK from adding its own host name check.
 */
final class TrustAnyCertificate extends X509ExtendedTrustManager {
    private static final X509Certificate[] NONE = new X509Certificate[0];

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        // self-signed peers: nothing to verify against
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return NONE;
    }
}
