package io.etcdj.server.config;

import io.etcdj.server.discovery.V3DiscoverySettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The discovery flags checked as etcd 3.6 checks them: --discovery-fallback ('exit' only, the v2
 * proxy is gone), one bootstrap source, v2 (--discovery, --discovery-proxy) and v3
 * (--discovery-token, --discovery-endpoints, ...) settings not mixed, token and endpoints
 * together; and the v3 discovery settings built from them.
 */
final class DiscoveryFlags {
    static final String DEFAULT_INITIAL_CLUSTER = "default=http://localhost:2380";

    private DiscoveryFlags() {
    }

    /** Fails with etcd's text when the discovery flags cannot be used together. */
    static void validate(Map<String, String> all) throws ConfigException {
        String fallback = all.get("discovery-fallback").trim();
        if (!fallback.equals("exit") && !fallback.equals("proxy")) {
            throw new ConfigException("invalid value \"" + fallback + "\" for flag -discovery-fallback: invalid value \""
                    + fallback + "\"", 2, true);
        }
        if (fallback.equals("proxy")) {
            throw verifying("v2 proxy is deprecated, and --discovery-fallback can't be configured as \"proxy\"");
        }
        List<String> endpoints = endpoints(all);
        boolean explicitCluster = !all.get("initial-cluster").equals(DEFAULT_INITIAL_CLUSTER);
        int sources = (explicitCluster ? 1 : 0) + (all.get("discovery").isEmpty() ? 0 : 1)
                + (all.get("discovery-srv").isEmpty() ? 0 : 1) + (endpoints.isEmpty() ? 0 : 1);
        if (sources > 1) {
            // etcd 3.4's wording names the three sources it has; 3.6's adds discovery-endpoints
            throw verifying("multiple discovery or bootstrap flags are set. Choose one of \"initial-cluster\", \"discovery\""
                    + (endpoints.isEmpty() ? "" : ", \"discovery-endpoints\"") + " or \"discovery-srv\"");
        }
        boolean v3 = !endpoints.isEmpty() || !all.get("discovery-token").isEmpty();
        for (String f : List.of("discovery-cert", "discovery-key", "discovery-cacert", "discovery-user", "discovery-password")) {
            v3 |= !all.get(f).isEmpty();
        }
        if (!all.get("discovery-proxy").isEmpty() && v3) {
            throw verifying("both v2 discovery settings (discovery, discovery-proxy) and v3 discovery settings "
                    + "(discovery-token, discovery-endpoints, discovery-cert, discovery-key, discovery-cacert, "
                    + "discovery-user, discovery-password) are set");
        }
        if (all.get("discovery-token").isEmpty() != endpoints.isEmpty()) {
            throw verifying("both --discovery-token and --discovery-endpoints must be set");
        }
    }

    /** Whether the member bootstraps by v3 discovery. */
    static boolean v3(Map<String, String> all) throws ConfigException {
        return !endpoints(all).isEmpty();
    }

    /** The v3 discovery settings of the validated flags. */
    static V3DiscoverySettings v3Settings(Map<String, String> all) throws ConfigException {
        return new V3DiscoverySettings(all.get("discovery-token"), endpoints(all),
                Durations.parse(all.get("discovery-dial-timeout"), "discovery-dial-timeout"),
                Durations.parse(all.get("discovery-request-timeout"), "discovery-request-timeout"),
                Durations.parse(all.get("discovery-keepalive-time"), "discovery-keepalive-time"),
                Durations.parse(all.get("discovery-keepalive-timeout"), "discovery-keepalive-timeout"),
                Boolean.TRUE.equals(FlagParser.parseBool(all.get("discovery-insecure-transport").trim())),
                Boolean.TRUE.equals(FlagParser.parseBool(all.get("discovery-insecure-skip-tls-verify").trim())),
                path(all.get("discovery-cert")), path(all.get("discovery-key")), path(all.get("discovery-cacert")),
                all.get("discovery-user"), all.get("discovery-password"));
    }

    /** --discovery-endpoints as a list; an empty flag is no endpoints, an empty element an error. */
    private static List<String> endpoints(Map<String, String> all) throws ConfigException {
        String flag = all.get("discovery-endpoints");
        List<String> out = new ArrayList<>();
        if (flag.isEmpty()) {
            return out;
        }
        for (String e : flag.split(",", -1)) {
            if (e.trim().isEmpty()) {
                throw verifying("--discovery-endpoints must not contain empty endpoints");
            }
            if (!out.contains(e)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Path path(String s) {
        return s == null || s.isEmpty() ? null : Path.of(s);
    }

    /** etcd's form for an invalid combination of flags. */
    private static ConfigException verifying(String problem) {
        return new ConfigException("error verifying flags, " + problem + ". See 'etcd --help'.");
    }
}
