package io.etcdj.server.discovery;

import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.naming.NamingException;

/**
 * --discovery-srv for a member: the initial cluster from the domain's _etcd-server-ssl (https)
 * and _etcd-server (http) records, as etcd's srv.GetCluster builds it. The record whose target
 * resolves to one of this member's advertised peer URLs is named after this member; the others
 * get placeholder names ("0", "1", ...), which is harmless because member IDs come from the
 * peer URLs. URLs keep the record's host name, so every member computes the same IDs.
 */
public final class SrvCluster {
    private SrvCluster() {
    }

    /** The --initial-cluster value etcd would use. */
    public static String initialCluster(String domain, String serviceName, String name, List<URI> advertisedPeerUrls)
            throws DiscoveryException {
        Map<String, URI> byAddress = new HashMap<>();
        for (URI u : advertisedPeerUrls) {
            try {
                byAddress.put(SrvLookup.resolveHost(u.getHost()) + ":" + u.getPort(), u);
            } catch (UnknownHostException e) {
                throw new DiscoveryException("lookup " + u.getHost() + ": no such host");
            }
        }
        int[] tempName = {0};
        List<String> parts = new ArrayList<>();
        String https = "etcd-server-ssl" + suffix(serviceName);
        String http = "etcd-server" + suffix(serviceName);
        String sslError = collect(https, "https", domain, name, byAddress, tempName, parts);
        String plainError = collect(http, "http", domain, name, byAddress, tempName, parts);
        if (parts.isEmpty()) {
            throw new DiscoveryException(sslError != null ? sslError : plainError);
        }
        return String.join(",", parts);
    }

    private static String suffix(String serviceName) {
        return serviceName == null || serviceName.isEmpty() ? "" : "-" + serviceName;
    }

    /** Adds the records of one service; returns etcd's error text when there are none usable. */
    private static String collect(String service, String scheme, String domain, String name, Map<String, URI> self,
            int[] tempName, List<String> parts) {
        List<SrvLookup.Srv> records;
        try {
            records = SrvLookup.lookup(service, domain);
        } catch (NamingException e) {
            return "error querying DNS SRV records for _" + service + " lookup _" + service + "._tcp." + domain
                    + ": no such host";
        }
        String error = null;
        int before = parts.size();
        for (SrvLookup.Srv r : records) {
            String address;
            try {
                address = SrvLookup.resolveHost(r.host()) + ":" + r.port();
            } catch (UnknownHostException e) {
                error = "lookup " + r.host() + ": no such host";
                continue;
            }
            URI mine = self.get(address);
            String n = mine != null ? name : Integer.toString(tempName[0]++);
            String url = scheme + "://" + r.host() + ":" + r.port();
            if (mine != null && !mine.getScheme().equals(scheme)) {
                error = "bootstrap at " + url + " from DNS for _" + service + " has scheme mismatch with expected peer "
                        + mine;
                continue;
            }
            parts.add(n + "=" + url);
        }
        if (parts.size() == before) {
            return "error querying DNS SRV records for _" + service + " " + (error == null ? "no records" : error);
        }
        return null;
    }

    /** Whether two peer URLs name the same scheme, address and port once host names are resolved. */
    public static boolean sameEndpoint(URI a, URI b) {
        if (a.equals(b)) {
            return true;
        }
        if (!a.getScheme().equals(b.getScheme()) || a.getPort() != b.getPort()) {
            return false;
        }
        try {
            return SrvLookup.resolveHost(a.getHost()).equals(SrvLookup.resolveHost(b.getHost()));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
