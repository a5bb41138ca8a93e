package io.etcdj.launcher.spec;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Checks a cluster as a whole: unique names, and no port claimed twice. */
final class ClusterValidator {
    private ClusterValidator() {}

    static void validate(ClusterSpec spec) throws ClusterFileException {
        Map<String, MemberSpec> names = new HashMap<>();
        Map<Integer, String> ports = new HashMap<>();
        for (MemberSpec m : spec.members()) {
            MemberSpec clash = names.get(m.name());
            if (clash != null && clash != m) {
                throw new ClusterFileException(spec.source(), m.line(), "member name \"" + m.name()
                        + "\" is also used by process \"" + clash.process() + "\" (line " + clash.line() + ")");
            }
            names.put(m.name(), m);
            if (!m.process().equals(m.name())) {
                MemberSpec other = names.get(m.process());
                if (other != null && other != m) {
                    throw new ClusterFileException(spec.source(), m.line(), "process name \"" + m.process()
                            + "\" is the member name of process \"" + other.process() + "\"");
                }
                names.put(m.process(), m);
            }
            claim(spec, m, ports, m.listenClientUrls(), "client URL");
            claim(spec, m, ports, m.listenPeerUrls(), "peer URL");
            if (spec.faults() == FaultMode.PROXY) {
                claim(spec, m, ports, m.peerUrls(), "peer proxy URL");
            }
        }
    }

    private static void claim(ClusterSpec spec, MemberSpec m, Map<Integer, String> ports,
            List<URI> urls, String role) throws ClusterFileException {
        for (URI url : urls) {
            String owner = role + " of " + m.name();
            String previous = ports.putIfAbsent(url.getPort(), owner);
            if (previous != null) {
                throw new ClusterFileException(spec.source(), m.line(), "port " + url.getPort()
                        + " is used twice: by the " + previous + " and by the " + owner);
            }
        }
    }
}
