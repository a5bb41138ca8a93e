package io.etcdj.server.proxy.grpc;

import io.etcdj.certs.TlsFiles;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EndpointListResolver;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The proxy's one channel to the cluster. The endpoints are shuffled and handed to gRPC's
 * pick-first policy: the proxy uses one endpoint at random until it fails, then the next (as the
 * seed describes etcd's proxy). TLS to the members comes from --cert/--key/--cacert.
 */
final class UpstreamChannel {

    /** Client-side TLS flags; empty strings and false for plain connections. */
    record Tls(String certFile, String keyFile, String caFile, boolean skipVerify) {
        boolean configured() {
            return !certFile.isEmpty() || !caFile.isEmpty() || skipVerify;
        }
    }

    private UpstreamChannel() {
    }

    @SuppressWarnings("deprecation") // nameResolverFactory is the per-channel resolver hook
    static ManagedChannel open(List<Endpoint> endpoints, Tls tls) throws SSLException {
        List<Endpoint> shuffled = new ArrayList<>(endpoints);
        Collections.shuffle(shuffled);
        NettyChannelBuilder b = NettyChannelBuilder.forTarget(EndpointListResolver.SCHEME + ":///etcd")
                .nameResolverFactory(new EndpointListResolver.Factory(shuffled))
                .keepAliveTime(10, TimeUnit.SECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS)
                .keepAliveWithoutCalls(true)
                .maxInboundMessageSize(Integer.MAX_VALUE)
                .userAgent("etcdj-grpc-proxy");
        boolean secure = tls.configured() || endpoints.stream().anyMatch(Endpoint::secure);
        if (secure) {
            SslContextBuilder ssl = GrpcSslContexts.forClient();
            if (tls.skipVerify()) {
                ssl.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (!tls.caFile().isEmpty()) {
                ssl.trustManager(new File(tls.caFile()));
            }
            if (!tls.certFile().isEmpty()) {
                ssl.keyManager(new TlsFiles(Path.of(tls.certFile()), Path.of(tls.keyFile()),
                        null).keyManagerFactory());
            }
            b.sslContext(ssl.build()).useTransportSecurity();
        } else {
            b.usePlaintext();
        }
        return b.intercept(ForwardedHeaders.attach()).build();
    }
}
