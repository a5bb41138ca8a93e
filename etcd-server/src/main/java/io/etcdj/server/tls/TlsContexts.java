package io.etcdj.server.tls;

import io.etcdj.certs.CertsException;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.config.TlsOptions;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds Netty {@code SslContext}s from resolved files and the shared options (protocol versions,
 * cipher suites). All use the JDK's TLS provider.
 */
public final class TlsContexts {
    /** The JDK needs TLS 1.3's suites listed explicitly; Go always enables them, whatever --cipher-suites says. */
    private static final List<String> TLS13_SUITES =
            List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");

    private final TlsOptions options;

    /**
     * gRPC and HTTPS share the port, so ALPN offers both. http/1.1 comes first so that a client
     * offering both (curl, browsers) gets HTTP/1.1, which the port's HTTP side speaks; gRPC clients
     * (and our peers) offer h2 only.
     */
    private static final ApplicationProtocolConfig HTTP1_AND_H2 = new ApplicationProtocolConfig(
            ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
            ApplicationProtocolNames.HTTP_1_1, ApplicationProtocolNames.HTTP_2);

    public TlsContexts(TlsOptions options) {
        this.options = options;
    }

    /**
     * The peer client context for a member's flags (self-signed files must already exist); null
     * when the member has no peer certificate.
     */
    public static SslContext peerClientFor(ServerConfig cfg) throws ConfigException {
        return new TlsContexts(cfg.tlsOptions()).peerClient(TlsSides.of(cfg).peer());
    }

    /** The client port: gRPC, the gateway and the health endpoints (ALPN: {@link #HTTP1_AND_H2}). */
    SslContext clientPort(SideTls side) throws ConfigException {
        SslContextBuilder b = server(side).sslProvider(SslProvider.JDK).applicationProtocolConfig(HTTP1_AND_H2);
        return build(versionsAndCiphers(b), side);
    }

    /** The peer port: Raft streams, gRPC and etcd's HTTP endpoints (ALPN: {@link #HTTP1_AND_H2}). */
    SslContext peerServer(SideTls side) throws ConfigException {
        SslContextBuilder b = GrpcSslContexts.configure(server(side), SslProvider.JDK).applicationProtocolConfig(HTTP1_AND_H2);
        return build(versionsAndCiphers(b), side);
    }

    /**
     * Dialing peers: the peer certificate (if any) as client certificate; the peer CA (or the
     * JDK's roots) to verify them, or nothing at all with --peer-auto-tls, as etcd skips
     * verification of self-signed peers.
     */
    SslContext peerClient(SideTls side) throws ConfigException {
        if (side == null) {
            return null; // no peer certificate: https peers are dialed with the JDK's defaults
        }
        SslContextBuilder b = GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.JDK);
        try {
            b.keyManager(side.dialing().keyManagerFactory());
            if (side.selfSigned()) {
                b.trustManager(new TrustAnyCertificate());
            } else {
                b.trustManager(side.files().trustManagerFactory());
            }
        } catch (CertsException e) {
            throw new ConfigException(e.getMessage());
        }
        return build(versionsAndCiphers(b), side);
    }

    private static SslContextBuilder server(SideTls side) throws ConfigException {
        try {
            SslContextBuilder b = SslContextBuilder.forServer(side.files().keyManagerFactory());
            if (side.verifyClients()) {
                b.clientAuth(ClientAuth.REQUIRE);
                if (side.checks() != null && side.checks().any()) {
                    CertCheckingTrustManager.checkReadable(side.checks());
                    b.trustManager(new CertCheckingTrustManager(caTrust(side.files().trustManagerFactory()), side.checks()));
                } else {
                    b.trustManager(side.files().trustManagerFactory());
                }
            }
            return b;
        } catch (CertsException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static X509ExtendedTrustManager caTrust(TrustManagerFactory tmf) throws ConfigException {
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509ExtendedTrustManager x) {
                return x;
            }
        }
        throw new ConfigException("no X.509 trust manager for the trusted CA file");
    }

    private SslContextBuilder versionsAndCiphers(SslContextBuilder b) throws ConfigException {
        List<String> versions = new ArrayList<>();
        for (String v : List.of("TLSv1.3", "TLSv1.2")) {
            boolean aboveMax = options.maxVersion() != null && v.compareTo(options.maxVersion()) > 0;
            if (!aboveMax && v.compareTo(options.minVersion()) >= 0) {
                versions.add(v);
            }
        }
        b.protocols(versions);
        if (!options.cipherSuites().isEmpty()) {
            Set<String> supported = supportedSuites();
            List<String> suites = new ArrayList<>();
            for (String s : options.jdkCipherSuites()) {
                if (supported.contains(s)) {
                    suites.add(s);
                }
            }
            if (suites.isEmpty()) {
                throw new ConfigException("none of --cipher-suites " + String.join(",", options.cipherSuites())
                        + " is supported by this Java runtime");
            }
            if (versions.contains("TLSv1.3")) {
                suites.addAll(TLS13_SUITES);
            }
            b.ciphers(suites, SupportedCipherSuiteFilter.INSTANCE);
        }
        return b;
    }

    private static Set<String> supportedSuites() throws ConfigException {
        try {
            return Set.copyOf(Arrays.asList(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites()));
        } catch (NoSuchAlgorithmException e) {
            throw new ConfigException("TLS is not available in this Java runtime: " + e.getMessage());
        }
    }

    private static SslContext build(SslContextBuilder b, SideTls side) throws ConfigException {
        try {
            return b.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException(side.files().certFile() + ": cannot set up TLS: " + e.getMessage());
        }
    }
}
