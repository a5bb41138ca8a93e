package io.etcdj.server.embed;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.DiscoveryOptions;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.discovery.DiscoveryException;
import io.etcdj.server.discovery.SrvCluster;
import io.etcdj.server.discovery.V2Discovery;
import io.etcdj.server.discovery.V3Discovery;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The bootstrap step that turns the discovery flags into the initial cluster (etcd's
 * bootstrap does it before it opens the member): DNS SRV records, or joining a v2 or v3
 * discovery service. The flags only say where to look ({@link DiscoveryOptions}); the lookups,
 * which go over the network and may wait, happen here, when the member starts.
 */
final class ClusterDiscovery {
    private ClusterDiscovery() {
    }

    /** {@code config} with the cluster its discovery finds; {@code config} itself when it has none. */
    static ServerConfig resolve(ServerConfig config, LogSink logs) throws ConfigException {
        DiscoveryOptions discovery = config.discovery();
        if (!discovery.any()) {
            return config;
        }
        return config.withInitialCluster(ServerConfig.initialCluster(find(config, discovery, logs)));
    }

    private static String find(ServerConfig config, DiscoveryOptions discovery, LogSink logs) throws ConfigException {
        List<URI> advertised = config.initialAdvertisePeerUrls();
        if (!discovery.srvDomain().isEmpty()) {
            try {
                return SrvCluster.initialCluster(discovery.srvDomain(), discovery.srvName(), config.name(), advertised);
            } catch (DiscoveryException e) {
                throw new ConfigException("error setting up initial cluster: " + e.getMessage());
            }
        }
        String self = advertised.stream().map(u -> config.name() + "=" + u).collect(Collectors.joining(","));
        if (Files.isDirectory(config.walPath())) {
            // a member that already bootstrapped restarts from its log; the discovery token is not used again
            return self;
        }
        long id = MemberIds.memberId(advertised.stream().map(URI::toString).toList(), config.initialClusterToken(), null);
        try {
            if (discovery.v3() != null) {
                logs.logger("etcdserver/bootstrap.go").info("Bootstrapping cluster using v3 discovery.");
                return V3Discovery.join(discovery.v3(), id, self);
            }
            return V2Discovery.join(discovery.v2Url(), discovery.v2Proxy(), id, self);
        } catch (DiscoveryException e) {
            throw new ConfigException("failed to join discovery cluster (" + e.getMessage() + ")");
        }
    }
}
