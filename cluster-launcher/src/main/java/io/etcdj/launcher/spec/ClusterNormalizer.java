package io.etcdj.launcher.spec;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the cluster-wide settings to each member: {@code tls: true} turns every URL into https,
 * and {@code faults: proxy} moves a member's real peer listener one port up so the launcher's
 * proxy can own the advertised peer port.
 */
final class ClusterNormalizer {
    private ClusterNormalizer() {}

    static ClusterSpec normalize(ClusterSpec spec) {
        List<MemberSpec> members = new ArrayList<>();
        for (MemberSpec m : spec.members()) {
            if (spec.tls()) {
                m = new MemberSpec(m.process(), m.name(), https(m.listenClientUrls()), https(m.clientUrls()),
                        https(m.listenPeerUrls()), https(m.peerUrls()), m.dataDir(), m.flags(), m.env(),
                        m.initialClusterState(), m.line());
            }
            if (spec.faults() == FaultMode.PROXY && m.listenPeerUrls().equals(m.peerUrls())) {
                m = m.withPeerUrls(List.of(shiftPort(m.peerUrl(), 1)), m.peerUrls());
            }
            members.add(m);
        }
        return spec.withMembers(members);
    }

    static URI shiftPort(URI uri, int delta) {
        return withSchemeAndPort(uri, uri.getScheme(), uri.getPort() + delta);
    }

    private static List<URI> https(List<URI> urls) {
        return urls.stream().map(u -> withSchemeAndPort(u, "https", u.getPort())).toList();
    }

    private static URI withSchemeAndPort(URI u, String scheme, int port) {
        try {
            return new URI(scheme, null, u.getHost(), port, u.getPath(), null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
