package io.etcdj.server.embed;

import java.net.InetAddress;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How many event loops a member runs: the host's budget (one per core, or {@code
 * io.netty.eventLoopThreads}) shared among the members of the initial cluster that run on this
 * host, those whose peer URLs name a host this member's own advertised peer URLs name (loopback
 * names and addresses count as one host). A member alone on its machine, as in production, gets a
 * loop per core; a three-member development cluster on two cores, one loop each: the loops of
 * three members are then no more than the cores (docs/decisions.md, "One set of event loops per
 * member"). The host is read from the URLs as written: nothing is resolved.
 */
final class EventLoopBudget {
    private EventLoopBudget() {
    }

    /** The loops for a member advertising {@code ownPeerUrls} in {@code initialCluster}, out of {@code hostLoops}. */
    static int loopsFor(Map<String, List<URI>> initialCluster, List<URI> ownPeerUrls, int hostLoops) {
        return Math.max(1, hostLoops / coLocated(initialCluster, ownPeerUrls));
    }

    /** The members of {@code initialCluster} on this member's host, this member included (at least 1). */
    static int coLocated(Map<String, List<URI>> initialCluster, List<URI> ownPeerUrls) {
        Set<String> ownHosts = new HashSet<>();
        for (URI u : ownPeerUrls) {
            ownHosts.add(host(u));
        }
        int n = 0;
        for (List<URI> urls : initialCluster.values()) {
            if (urls.stream().anyMatch(u -> ownHosts.contains(host(u)))) {
                n++;
            }
        }
        return Math.max(1, n);
    }

    /** The URL's host: an IP literal as its address, every loopback name and address as "loopback". */
    private static String host(URI u) {
        String h = u.getHost() == null ? "" : u.getHost().toLowerCase(Locale.ROOT);
        InetAddress ip = Member.ipLiteral(h);
        if (h.equals("localhost") || ip != null && ip.isLoopbackAddress()) {
            return "loopback";
        }
        return ip != null ? ip.getHostAddress() : h;
    }
}
