package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.FlagParser;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.log.LogSink;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the flags looks nothing up; the bootstrap does, and only for a member that has not
 * bootstrapped yet. (The lookups themselves, against a DNS server and discovery services, are
 * DnsSrvBootstrapIT, DiscoveryServiceIT and V3DiscoveryIT.)
 */
class ClusterDiscoveryTest {
    /** Nothing listens on port 1: a discovery call to it would fail at once. */
    private static final String UNREACHABLE_DISCOVERY = "http://127.0.0.1:1/v2/keys/discovery/abc";

    @TempDir
    Path dataDir;

    private ServerConfig flags(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values());
    }

    @Test
    void readingTheDiscoveryFlagsContactsNothing() throws ConfigException {
        // a domain that cannot resolve and a service nobody runs: parsing succeeds all the same
        ServerConfig srv = flags("--name", "m1", "--data-dir", dataDir.toString(), "--discovery-srv", "no-such-domain.invalid");
        assertTrue(srv.initialCluster().isEmpty(), srv.initialCluster().toString());
        assertEquals("no-such-domain.invalid", srv.discovery().srvDomain());

        ServerConfig url = flags("--name", "m1", "--data-dir", dataDir.toString(), "--discovery", UNREACHABLE_DISCOVERY);
        assertTrue(url.initialCluster().isEmpty(), url.initialCluster().toString());
        assertEquals(UNREACHABLE_DISCOVERY, url.discovery().v2Url());
        assertEquals(UNREACHABLE_DISCOVERY, url.initialClusterToken(), "the discovery URL is the cluster token, as in etcd");
    }

    @Test
    void aMemberThatBootstrappedRestartsFromItsLogWithoutAskingTheService() throws ConfigException, IOException {
        Files.createDirectories(dataDir.resolve("member").resolve("wal"));
        ServerConfig flags = flags("--name", "m1", "--data-dir", dataDir.toString(), "--discovery", UNREACHABLE_DISCOVERY,
                "--initial-advertise-peer-urls", "http://127.0.0.1:12380");

        ServerConfig resolved = ClusterDiscovery.resolve(flags, LogSink.stderr());

        assertEquals(Map.of("m1", List.of(URI.create("http://127.0.0.1:12380"))), resolved.initialCluster());
        assertFalse(resolved.discovery().any(), "the resolved config has nothing left to discover");
    }

    @Test
    void withoutDiscoveryTheInitialClusterFlagIsTheCluster() throws ConfigException {
        ServerConfig flags = flags("--name", "a", "--data-dir", dataDir.toString(),
                "--initial-cluster", "a=http://127.0.0.1:12380,b=http://127.0.0.1:22380");
        assertEquals(List.of(URI.create("http://127.0.0.1:22380")), flags.initialCluster().get("b"));
        assertSame(flags, ClusterDiscovery.resolve(flags, LogSink.stderr()));
    }
}
