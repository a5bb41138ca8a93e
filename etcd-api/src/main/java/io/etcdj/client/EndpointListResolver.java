package io.etcdj.client;

import io.grpc.Attributes;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves the channel's target to the fixed endpoint list, so gRPC's pick-first policy fails over
 * from one endpoint to the next when a connection cannot be made. Used by this client and by the
 * server's gRPC proxy for its connection to the cluster.
 */
public final class EndpointListResolver extends NameResolver {

    /** The target scheme the factory answers: build channels for {@code SCHEME + ":///etcd"}. */
    public static final String SCHEME = "etcdj-endpoints";

    private final List<Endpoint> endpoints;

    EndpointListResolver(List<Endpoint> endpoints) {
        this.endpoints = endpoints;
    }

    @Override
    public String getServiceAuthority() {
        return endpoints.get(0).authority();
    }

    @Override
    public void start(Listener2 listener) {
        List<EquivalentAddressGroup> groups = new ArrayList<>();
        for (Endpoint e : endpoints) {
            Attributes attrs = Attributes.newBuilder()
                    .set(EquivalentAddressGroup.ATTR_AUTHORITY_OVERRIDE, e.authority())
                    .build();
            groups.add(new EquivalentAddressGroup(new InetSocketAddress(e.host(), e.port()), attrs));
        }
        listener.onResult(ResolutionResult.newBuilder().setAddresses(groups).build());
    }

    @Override
    public void shutdown() {
        // Nothing to release: the list is static.
    }

    /** Factory handing out resolvers for one endpoint list. */
    public static final class Factory extends NameResolver.Factory {
        private final List<Endpoint> endpoints;

        public Factory(List<Endpoint> endpoints) {
            this.endpoints = endpoints;
        }

        @Override
        public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
            return SCHEME.equals(targetUri.getScheme()) ? new EndpointListResolver(endpoints) : null;
        }

        @Override
        public String getDefaultScheme() {
            return SCHEME;
        }
    }
}
