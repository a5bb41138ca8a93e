package io.etcdj.launcher.process;

import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Builds the etcd command line for one member. The launcher owns name, URLs, data dir and the
 * initial cluster; cluster-wide flags come next and the member's own flags last, so a member can
 * override a cluster-wide setting (etcd keeps the last value of a repeated flag).
 */
public final class CommandLineBuilder {
    private CommandLineBuilder() {}

    /** One entry of {@code --initial-cluster}: a member name and its advertised peer URLs. */
    public record Peer(String name, List<String> peerUrls) {}

    public static List<String> build(EtcdBinary binary, ClusterSpec cluster, MemberSpec member,
            ClusterLayout layout, List<Peer> initialCluster, Optional<TlsFiles> tls) {
        List<String> cmd = new ArrayList<>();
        cmd.add(binary.path().toString());
        add(cmd, "--name", member.name());
        add(cmd, "--data-dir", layout.dataDir(member).toString());
        add(cmd, "--listen-client-urls", join(member.listenClientUrls()));
        add(cmd, "--advertise-client-urls", join(member.clientUrls()));
        add(cmd, "--listen-peer-urls", join(member.listenPeerUrls()));
        add(cmd, "--initial-advertise-peer-urls", join(member.peerUrls()));
        add(cmd, "--initial-cluster-token", cluster.token());
        add(cmd, "--initial-cluster", initialClusterFlag(initialCluster));
        add(cmd, "--initial-cluster-state", member.initialClusterState());
        tls.ifPresent(t -> {
            add(cmd, "--cert-file", t.serverCert().toString());
            add(cmd, "--key-file", t.serverKey().toString());
            add(cmd, "--trusted-ca-file", t.caCert().toString());
            cmd.add("--client-cert-auth");
            add(cmd, "--peer-cert-file", t.peerCert().toString());
            add(cmd, "--peer-key-file", t.peerKey().toString());
            add(cmd, "--peer-trusted-ca-file", t.caCert().toString());
            cmd.add("--peer-client-cert-auth");
        });
        cmd.addAll(cluster.flags());
        cmd.addAll(member.flags());
        return cmd;
    }

    /** The founding members of a new cluster, from the cluster file. */
    public static List<Peer> founders(List<MemberSpec> members) {
        return members.stream()
                .map(m -> new Peer(m.name(), m.peerUrls().stream().map(URI::toString).toList()))
                .toList();
    }

    static String initialClusterFlag(List<Peer> peers) {
        return peers.stream()
                .flatMap(p -> p.peerUrls().stream().map(u -> p.name() + "=" + u))
                .collect(Collectors.joining(","));
    }

    private static String join(List<URI> urls) {
        return urls.stream().map(URI::toString).collect(Collectors.joining(","));
    }

    private static void add(List<String> cmd, String flag, String value) {
        cmd.add(flag + "=" + value);
    }
}
