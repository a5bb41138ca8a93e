package io.etcd.jetcd.test;

import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import java.net.URI;

/** Registers the {@code cluster://} scheme with gRPC (through META-INF/services). */
public final class EtcdClusterResolverProvider extends NameResolverProvider {
    @Override
    protected boolean isAvailable() {
        return true;
    }

    @Override
    protected int priority() {
        return 6;
    }

    @Override
    public String getDefaultScheme() {
        return EtcdClusterNameResolver.SCHEME;
    }

    @Override
    public NameResolver newNameResolver(URI target, NameResolver.Args args) {
        return EtcdClusterNameResolver.SCHEME.equals(target.getScheme()) ? new EtcdClusterNameResolver(target, args) : null;
    }
}
