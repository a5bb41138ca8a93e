package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlagParserTest {
    @TempDir
    Path dir;

    private static ServerConfig config(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values());
    }

    @Test
    void defaultsAreEtcds() throws Exception {
        ServerConfig c = config();
        assertEquals("default", c.name());
        assertEquals(Path.of("default.etcd"), c.dataDir());
        assertEquals("http://localhost:2379", c.listenClientUrls().get(0).toString());
        assertEquals(ServerConfig.DEFAULT_QUOTA, c.quotaBackendBytes());
        assertEquals(128, c.maxTxnOps());
        assertEquals(1572864, c.maxRequestBytes());
        assertEquals(10, c.electionTicks());
        assertTrue(c.initialClusterStateNew());
        assertEquals(Duration.ofMinutes(10), c.watchProgressNotifyInterval());
    }

    @Test
    void goStyleFlagsAndDataDirFromName() throws Exception {
        ServerConfig c = config("-name", "infra1", "--max-txn-ops=3", "--force-new-cluster", "--pre-vote=false");
        assertEquals(Path.of("infra1.etcd"), c.dataDir());
        assertEquals(3, c.maxTxnOps());
        assertTrue(c.forceNewCluster());
        assertFalse(c.preVote());
    }

    @Test
    void environmentFillsFlagsAndConflictsAreErrors() throws Exception {
        FlagParser.Parsed p = FlagParser.parse(new String[0], Map.of("ETCD_NAME", "envname"));
        assertEquals("envname", ServerConfig.from(p.values()).name());
        ConfigException e = assertThrows(ConfigException.class,
                () -> FlagParser.parse(new String[] {"--name", "x"}, Map.of("ETCD_NAME", "y")));
        assertEquals("conflicting environment variable \"ETCD_NAME\" is shadowed by corresponding command-line flag "
                + "(either unset environment variable or disable flag)", e.getMessage());
        assertEquals(1, e.exitCode());
    }

    @Test
    void errorsReadAsEtcds() {
        ConfigException unknown = assertThrows(ConfigException.class, () -> config("--foo"));
        assertEquals("flag provided but not defined: -foo", unknown.getMessage());
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.showUsage());
        ConfigException positional = assertThrows(ConfigException.class, () -> config("extra-arg"));
        assertEquals("error verifying flags, 'extra-arg' is not a valid flag. See 'etcd --help'.", positional.getMessage());
        ConfigException bad = assertThrows(ConfigException.class, () -> config("--heartbeat-interval", "abc"));
        assertEquals("invalid value \"abc\" for flag -heartbeat-interval: parse error", bad.getMessage());
        assertThrows(ConfigException.class, () -> config("--heartbeat-interval", "300", "--election-timeout", "1000"));
        assertThrows(ConfigException.class, () -> config("--initial-cluster-state", "maybe"));
        assertThrows(ConfigException.class, () -> config("--listen-client-urls", "ftp://127.0.0.1:1"));
    }

    @Test
    void parsedAsGosFlagPackageParsesThem() throws Exception {
        // as etcd 3.4: --version does not end the parse, "--" does, numbers take a base prefix
        ConfigException late = assertThrows(ConfigException.class,
                () -> FlagParser.parse(new String[] {"--version", "--bogus"}, Map.of()));
        assertEquals("flag provided but not defined: -bogus", late.getMessage());
        assertTrue(FlagParser.parse(new String[] {"--name=a", "--version"}, Map.of()).version());
        assertTrue(FlagParser.parse(new String[] {"--help", "--bogus"}, Map.of()).help());
        assertEquals("a", config("--name=a", "--").name());
        assertEquals(16, config("--max-txn-ops=0x10").maxTxnOps());
        assertEquals("bad flag syntax: ---x", assertThrows(ConfigException.class, () -> config("---x")).getMessage());
    }

    @Test
    void configFileReplacesFlagsAndEnvironment() throws Exception {
        Path yml = dir.resolve("etcd.yml");
        Files.writeString(yml, "name: fromfile\nmax-txn-ops: 7\nlisten-client-urls: http://127.0.0.1:1234\n"
                + "client-transport-security:\n  cert-file: ignored\n");
        FlagParser.Parsed p = FlagParser.parse(new String[] {"--config-file", yml.toString(), "--name", "flag"},
                Map.of("ETCD_MAX_TXN_OPS", "9"));
        ServerConfig c = ServerConfig.from(p.values());
        assertEquals("fromfile", c.name());
        assertEquals(7, c.maxTxnOps());
        assertEquals(1234, c.listenClientUrls().get(0).getPort());
    }

}
