package io.etcdj.server.proxy.grpc;

import io.etcdj.certs.TlsFiles;
import io.etcdj.client.Endpoint;
import io.grpc.Attributes;
import io.grpc.EquivalentAddressGroup;
import io.grpc.ManagedChannel;
import io.grpc.NameResolver;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.File;
import java.net.InetSocketAddress;
import java.net.URI;
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
    private static final String SCHEME = "etcdj-proxy-endpoints";

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
        NettyChannelBuilder b = NettyChannelBuilder.forTarget(SCHEME + ":///etcd")
                .nameResolverFactory(new Resolver(shuffled))
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
                ssl.keyManager(new TlsFiles(java.nio.file.Path.of(tls.certFile()), java.nio.file.Path.of(tls.keyFile()),
                        null).keyManagerFactory());
            }
            b.sslContext(ssl.build()).useTransportSecurity();
        } else {
            b.usePlaintext();
        }
        return b.intercept(ForwardedHeaders.attach()).build();
    }

    private static final class Resolver extends NameResolver.Factory {
        private final List<Endpoint> endpoints;

        Resolver(List<Endpoint> endpoints) {
            this.endpoints = endpoints;
        }

        @Override
        public NameResolver newNameResolver(URI target, NameResolver.Args args) {
            if (!SCHEME.equals(target.getScheme())) {
                return null;
            }
            return new NameResolver() {
                @Override
                public String getServiceAuthority() {
                    return endpoints.get(0).authority();
                }

                @Override
                public void start(Listener2 listener) {
                    List<EquivalentAddressGroup> groups = new ArrayList<>();
                    for (Endpoint e : endpoints) {
                        groups.add(new EquivalentAddressGroup(new InetSocketAddress(e.host(), e.port()),
                                Attributes.newBuilder().set(EquivalentAddressGroup.ATTR_AUTHORITY_OVERRIDE, e.authority())
                                        .build()));
                    }
                    listener.onResult(ResolutionResult.newBuilder().setAddresses(groups).build());
                }

                @Override
                public void shutdown() {
                    // a fixed list: nothing to release
                }
            };
        }

        @Override
        public String getDefaultScheme() {
            return SCHEME;
        }
    }
}
