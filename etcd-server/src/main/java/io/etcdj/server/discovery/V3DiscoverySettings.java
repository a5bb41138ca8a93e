package io.etcdj.server.discovery;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The --discovery-* flags of etcd 3.6's v3 discovery: the token, the endpoints of the etcd
 * cluster that backs the discovery service, and the client settings used to reach it (the same
 * meaning as etcdctl's global flags of the same names). Paths and the user may be null.
 */
public record V3DiscoverySettings(String token, List<String> endpoints, Duration dialTimeout,
        Duration requestTimeout, Duration keepAliveTime, Duration keepAliveTimeout, boolean insecureTransport,
        boolean insecureSkipTlsVerify, Path cert, Path key, Path cacert, String user, String password) {

    public V3DiscoverySettings {
        endpoints = List.copyOf(endpoints);
    }
}
