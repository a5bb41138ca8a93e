package io.etcd.jetcd.test;

import io.etcdj.embedded.EtcdMember;
import io.grpc.Attributes;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;

/**
 * Resolves {@code cluster://NAME} to the client addresses of the cluster an
 * {@link EtcdClusterExtension} runs under that name, each with its member's name as the TLS
 * authority (the certificates name the members).
 */
public final class EtcdClusterNameResolver extends NameResolver {
    public static final String SCHEME = "cluster";

    private final String clusterName;
    private final NameResolver.Args args;
    private Listener2 listener;

    EtcdClusterNameResolver(URI target, NameResolver.Args args) {
        this.clusterName = target.getAuthority();
        this.args = args;
    }

    @Override
    public String getServiceAuthority() {
        return clusterName == null ? "" : clusterName;
    }

    @Override
    public void start(Listener2 value) {
        this.listener = value;
        resolve();
    }

    @Override
    public void refresh() {
        resolve();
    }

    private void resolve() {
        args.getSynchronizationContext().execute(() -> {
            List<EtcdMember> members = clusterName == null ? null : EtcdClusterExtension.members(clusterName);
            if (members == null) {
                listener.onError(Status.NOT_FOUND.withDescription("no etcd cluster named " + clusterName
                        + " is running (is its EtcdClusterExtension registered and started?)"));
                return;
            }
            List<EquivalentAddressGroup> groups = members.stream().map(m -> new EquivalentAddressGroup(
                    new InetSocketAddress(m.clientEndpoint().getHost(), m.clientEndpoint().getPort()),
                    Attributes.newBuilder().set(EquivalentAddressGroup.ATTR_AUTHORITY_OVERRIDE, m.name()).build()))
                    .toList();
            // setAddresses, not the newer setAddressesOrError: the user's gRPC may be older than ours
            listener.onResult(ResolutionResult.newBuilder().setAddresses(groups).build());
        });
    }

    @Override
    public void shutdown() {
        listener = null;
    }
}
