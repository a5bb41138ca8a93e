package io.etcdj.server.config;

import io.etcdj.server.discovery.V3DiscoverySettings;

/**
 * How a new member finds its cluster when --initial-cluster does not say: the discovery flags as
 * parsed and checked, at most one source set. Nothing is looked up here: the member runs the
 * discovery when it bootstraps (embed's {@code ClusterDiscovery}), as etcd does in its bootstrap.
 *
 * @param srvDomain --discovery-srv ("" for none): the domain whose SRV records list the peers
 * @param srvName --discovery-srv-name: the suffix of the service name ({@code _etcd-server-ssl-NAME})
 * @param v2Url --discovery ("" for none): a v2 discovery URL
 * @param v2Proxy --discovery-proxy: the HTTP proxy to reach it through ("" for none)
 * @param v3 the v3 discovery settings (--discovery-token and --discovery-endpoints), null for none
 */
public record DiscoveryOptions(String srvDomain, String srvName, String v2Url, String v2Proxy, V3DiscoverySettings v3) {
    /** No discovery: --initial-cluster is the cluster. */
    public static final DiscoveryOptions NONE = new DiscoveryOptions("", "", "", "", null);

    /** Whether the member finds its cluster by discovery rather than from --initial-cluster. */
    public boolean any() {
        return !srvDomain.isEmpty() || !v2Url.isEmpty() || v3 != null;
    }
}
