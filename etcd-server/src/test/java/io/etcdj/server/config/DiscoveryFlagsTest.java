package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The discovery flags that etcd 3.6 refuses before it contacts anything, with its texts and exit codes. */
class DiscoveryFlagsTest {
    private static ConfigException refused(String... args) {
        return assertThrows(ConfigException.class, () -> ServerConfig.from(FlagParser.parse(args, Map.of()).values()));
    }

    @Test
    void discoveryFallbackProxyIsRefusedAsInEtcd36() {
        ConfigException proxy = refused("--discovery-fallback=proxy");
        assertEquals("error verifying flags, v2 proxy is deprecated, and --discovery-fallback can't be configured as "
                + "\"proxy\". See 'etcd --help'.", proxy.getMessage());
        assertEquals(1, proxy.exitCode());
        ConfigException other = refused("--discovery-fallback=retry");
        assertEquals("invalid value \"retry\" for flag -discovery-fallback: invalid value \"retry\"", other.getMessage());
        assertEquals(2, other.exitCode());
    }

    @Test
    void tokenAndEndpointsGoTogether() {
        String text = "error verifying flags, both --discovery-token and --discovery-endpoints must be set. See 'etcd --help'.";
        assertEquals(text, refused("--discovery-token=abc").getMessage());
        assertEquals(text, refused("--discovery-endpoints=127.0.0.1:2379").getMessage());
        assertEquals("error verifying flags, --discovery-endpoints must not contain empty endpoints. See 'etcd --help'.",
                refused("--discovery-token=abc", "--discovery-endpoints=127.0.0.1:2379,,127.0.0.1:22379").getMessage());
    }

    @Test
    void oneBootstrapSourceOnly() {
        assertEquals("error verifying flags, multiple discovery or bootstrap flags are set. Choose one of \"initial-cluster\", "
                + "\"discovery\", \"discovery-endpoints\" or \"discovery-srv\". See 'etcd --help'.",
                refused("--discovery-token=abc", "--discovery-endpoints=127.0.0.1:2379", "--initial-cluster=a=http://127.0.0.1:1")
                        .getMessage());
        assertEquals("error verifying flags, multiple discovery or bootstrap flags are set. Choose one of \"initial-cluster\", "
                + "\"discovery\" or \"discovery-srv\". See 'etcd --help'.",
                refused("--discovery=http://127.0.0.1:1/v2/keys/d/x", "--discovery-srv=example.test").getMessage());
    }

    @Test
    void v2AndV3SettingsAreNotMixed() {
        assertEquals("error verifying flags, both v2 discovery settings (discovery, discovery-proxy) and v3 discovery settings "
                + "(discovery-token, discovery-endpoints, discovery-cert, discovery-key, discovery-cacert, discovery-user, "
                + "discovery-password) are set. See 'etcd --help'.",
                refused("--discovery-proxy=127.0.0.1:3128", "--discovery-user=root").getMessage());
    }
}
