package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** etcd 3.6's whole flag surface: accepted, typed, deprecated spellings, and refused where we cannot honour it. */
class FlagCatalogTest {
    @TempDir
    Path dir;

    private static ServerConfig config(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values());
    }

    @Test
    void kubeadmsCommandLineParses() throws Exception {
        ServerConfig c = config("--advertise-client-urls=https://10.0.0.5:2379", "--cert-file=/pki/server.crt",
                "--client-cert-auth=true", "--data-dir=/var/lib/etcd", "--experimental-initial-corrupt-check=true",
                "--experimental-watch-progress-notify-interval=5s",
                "--initial-advertise-peer-urls=https://10.0.0.5:2380", "--initial-cluster=cp=https://10.0.0.5:2380",
                "--key-file=/pki/server.key", "--listen-client-urls=https://127.0.0.1:2379,https://10.0.0.5:2379",
                "--listen-metrics-urls=http://127.0.0.1:2381", "--listen-peer-urls=https://10.0.0.5:2380", "--name=cp",
                "--peer-cert-file=/pki/peer.crt", "--peer-client-cert-auth=true", "--peer-key-file=/pki/peer.key",
                "--peer-trusted-ca-file=/pki/ca.crt", "--snapshot-count=10000", "--trusted-ca-file=/pki/ca.crt");
        assertTrue(c.options().initialCorruptCheck());
        assertEquals(Duration.ofSeconds(5), c.watchProgressNotifyInterval());
        assertEquals("http://127.0.0.1:2381", c.options().listenMetricsUrls().get(0).toString());
        assertEquals(10000, c.snapshotCount());
        assertTrue(c.clientSecurity().clientCertAuth());
        assertTrue(c.peerSecurity().clientCertAuth());
        assertEquals(2, c.options().warnings().size(), "two deprecated spellings: " + c.options().warnings());
    }

    @Test
    void everyFlagIsAcceptedAtItsDefaultOnTheCommandLineFromTheEnvironmentAndInTheFile() throws Exception {
        List<String> args = new ArrayList<>();
        StringBuilder yaml = new StringBuilder();
        for (Flag f : Flag.ALL) {
            if (f.replacedBy() != null) {
                continue; // a deprecated spelling and its 3.6 name together is an error, tested below
            }
            String v = f.defaultValue().replace("${name}", "default");
            args.add("--" + f.name() + "=" + v);
            yaml.append(f.name()).append(": '").append(v.replace("'", "''")).append("'\n");
        }
        ServerConfig fromArgs = config(args.toArray(String[]::new));
        assertEquals(ServerConfig.DEFAULT_QUOTA, fromArgs.quotaBackendBytes());
        Path file = dir.resolve("etcd.yml");
        Files.writeString(file, yaml);
        ServerConfig fromFile = ServerConfig.from(FlagParser.parse(new String[] {"--config-file", file.toString()}, Map.of()).values());
        assertEquals(fromArgs.options().maxConcurrentStreams(), fromFile.options().maxConcurrentStreams());
        for (Flag f : Flag.ALL) {
            String v = f.defaultValue().replace("${name}", "default");
            FlagParser.Parsed p = FlagParser.parse(new String[0], Map.of(f.envName(), v));
            assertEquals(List.of(f.envName() + "=" + v), p.envUsed());
            assertNotNull(ServerConfig.from(p.values()), f.name());
        }
    }

    @Test
    void helpListsEveryFlag() {
        String usage = FlagParser.usage();
        for (Flag f : Flag.ALL) {
            assertTrue(usage.contains("  --" + f.name() + " "), f.name());
        }
        assertTrue(Flag.ALL.size() >= 130, "etcd 3.6 has 136 server flags, auth's three aside: " + Flag.ALL.size());
    }

    @Test
    void deprecatedSpellingsMapToTheirNewNamesButNotBoth() throws Exception {
        assertEquals(Duration.ofSeconds(7), config("--watch-progress-notify-interval=7s").watchProgressNotifyInterval());
        assertEquals(3, config("--experimental-max-learners=3").options().maxLearners());
        ConfigException both = assertThrows(ConfigException.class,
                () -> config("--experimental-snapshot-catchup-entries=10", "--snapshot-catchup-entries=20"));
        assertEquals("cannot set --experimental-snapshot-catchup-entries and --snapshot-catchup-entries at the same time, "
                + "please use --snapshot-catchup-entries only", both.getMessage());
        assertTrue(config("--feature-gates=InitialCorruptCheck=true").options().initialCorruptCheck());
        assertThrows(ConfigException.class,
                () -> config("--experimental-initial-corrupt-check=true", "--feature-gates=InitialCorruptCheck=true"));
    }

    @Test
    void flagsWithoutAnEffectYetRefuseOtherValuesNamingTheFlag() throws Exception {
        config("--enable-distributed-tracing=false", "--enable-pprof=false", "--experimental-corrupt-check-time=0s", "--cors=*");
        ConfigException e = assertThrows(ConfigException.class, () -> config("--enable-distributed-tracing=true"));
        assertTrue(e.getMessage().startsWith("--enable-distributed-tracing=true is not supported by this server yet"), e.getMessage());
        assertEquals(1, e.exitCode());
        assertEquals(Duration.ofMinutes(1), config("--experimental-corrupt-check-time=1m").options().corruptCheckTime());
    }

    @Test
    void unixUrlsAreAcceptedInEtcdsHostPortFormOnly() throws Exception {
        var c = config("--listen-client-urls=http://127.0.0.1:2379,unix://localhost:12345",
                "--listen-peer-urls=unixs://localhost:12346");
        assertEquals("unix://localhost:12345", c.listenClientUrls().get(1).toString());
        ConfigException path = assertThrows(ConfigException.class, () -> config("--listen-client-urls=unix:///tmp/x.sock"));
        assertEquals("invalid value \"unix:///tmp/x.sock\" for flag -listen-client-urls: "
                + "URL address does not have the form \"host:port\": unix:///tmp/x.sock", path.getMessage());
        ConfigException scheme = assertThrows(ConfigException.class, () -> config("--listen-client-urls=tcp://localhost:1"));
        assertTrue(scheme.getMessage().endsWith("URL scheme must be http, https, unix, or unixs: tcp://localhost:1"),
                scheme.getMessage());
    }

    @Test
    void theCompactionHashCheckIsSwitchedOnByItsGateOrThe35Flag() throws Exception {
        assertFalse(config().options().watchdog().compactHashCheck());
        assertEquals(Duration.ofMinutes(1), config().options().watchdog().compactHashCheckTime());
        assertTrue(config("--feature-gates=CompactHashCheck=true").options().watchdog().compactHashCheck());
        var w = config("--experimental-compact-hash-check-enabled=true", "--experimental-compact-hash-check-time=10s")
                .options().watchdog();
        assertTrue(w.compactHashCheck());
        assertEquals(Duration.ofSeconds(10), w.compactHashCheckTime());
        ConfigException zero = assertThrows(ConfigException.class, () -> config("--compact-hash-check-time=0s"));
        assertEquals("--compact-hash-check-time must be >0 (set to 0s)", zero.getMessage());
    }

    @Test
    void malformedValuesGetGosFlagErrors() {
        ConfigException d = assertThrows(ConfigException.class, () -> config("--experimental-corrupt-check-time", "x"));
        assertEquals("invalid value \"x\" for flag -experimental-corrupt-check-time: parse error", d.getMessage());
        assertEquals(2, d.exitCode());
        assertTrue(d.showUsage());
        assertThrows(ConfigException.class, () -> config("--max-concurrent-streams=-1"));
        assertThrows(ConfigException.class, () -> config("--socket-reuse-port=maybe"));
        ConfigException gate = assertThrows(ConfigException.class, () -> config("--feature-gates=Nope=true"));
        assertEquals("invalid value \"Nope=true\" for flag -feature-gates: unrecognized feature gate: Nope", gate.getMessage());
        assertThrows(ConfigException.class, () -> config("--max-learners=0"));
        ConfigException env = assertThrows(ConfigException.class,
                () -> FlagParser.parse(new String[0], Map.of("ETCD_GRPC_KEEPALIVE_TIMEOUT", "soon")));
        assertTrue(env.getMessage().contains("\"soon\""), env.getMessage());
    }

    @Test
    void unknownEtcdVariablesAreReportedNotUsed() throws Exception {
        FlagParser.Parsed p = FlagParser.parse(new String[0], Map.of("ETCD_NOT_A_FLAG", "1", "ETCD_NAME", "n", "HOME", "/"));
        assertEquals(List.of("ETCD_NOT_A_FLAG=1"), p.envUnrecognized());
        assertFalse(p.values().containsKey("not-a-flag"));
    }

    @Test
    void durationsInTheConfigFileMayBeNanoseconds() throws Exception {
        Path file = dir.resolve("d.yml");
        Files.writeString(file, "experimental-watch-progress-notify-interval: 5000000000\ngrpc-keepalive-timeout: 3s\n");
        ServerConfig c = ServerConfig.from(FlagParser.parse(new String[] {"--config-file", file.toString()}, Map.of()).values());
        assertEquals(Duration.ofSeconds(5), c.watchProgressNotifyInterval());
        assertEquals(Duration.ofSeconds(3), c.options().grpcKeepaliveTimeout());
    }
}
