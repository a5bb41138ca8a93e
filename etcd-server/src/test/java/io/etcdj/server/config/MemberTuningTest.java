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

/**
 * The flags that were accepted at their default only before: their values reach the member, as
 * flags, ETCD_* variables and deprecated spellings, and malformed values get Go's flag errors.
 */
class MemberTuningTest {

    private static ServerConfig config(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values());
    }

    private static MemberTuning tuning(String... args) throws ConfigException {
        return config(args).options().tuning();
    }

    @Test
    void defaultsAreEtcds() throws Exception {
        assertEquals(MemberTuning.DEFAULTS, tuning());
        assertEquals("map", tuning().freelistType());
    }

    /** Beyond etcd (its #15107): off by default, on as a flag, an ETCD_* variable or a config-file key. */
    @Test
    void autoPromoteLearnersAsFlagVariableOrConfigFile(@TempDir Path dir) throws Exception {
        assertFalse(tuning().autoPromoteLearners());
        assertTrue(tuning("--auto-promote-learners").autoPromoteLearners());
        assertTrue(ServerConfig.from(FlagParser.parse(new String[0], Map.of("ETCD_AUTO_PROMOTE_LEARNERS", "true")).values())
                .options().tuning().autoPromoteLearners());
        Path yaml = dir.resolve("etcd.yaml");
        Files.writeString(yaml, "auto-promote-learners: true\n");
        assertTrue(ServerConfig.from(FlagParser.parse(new String[] {"--config-file=" + yaml}, Map.of()).values())
                .options().tuning().autoPromoteLearners());
    }

    @Test
    void raftTimeoutsAreDurationsAndMalformedOnesGetGosError() throws Exception {
        MemberTuning t = tuning("--raft-read-timeout=2s", "--raft-write-timeout=1500ms");
        assertEquals(Duration.ofSeconds(2), t.raftReadTimeout());
        assertEquals(Duration.ofMillis(1500), t.raftWriteTimeout());
        ConfigException e = assertThrows(ConfigException.class, () -> config("--raft-read-timeout=5"));
        assertEquals("invalid value \"5\" for flag -raft-read-timeout: parse error", e.getMessage());
        assertEquals(2, e.exitCode());
        assertTrue(e.showUsage());
        ConfigException w = assertThrows(ConfigException.class, () -> config("--raft-write-timeout", "soon"));
        assertEquals("invalid value \"soon\" for flag -raft-write-timeout: parse error", w.getMessage());
        ConfigException env = assertThrows(ConfigException.class,
                () -> FlagParser.parse(new String[0], Map.of("ETCD_RAFT_READ_TIMEOUT", "1x")));
        // etcd 3.4 for ETCD_SNAPSHOT_COUNT=1x: the same words
        assertEquals("error verifying flags, invalid value \"1x\" for ETCD_RAFT_READ_TIMEOUT: parse error. "
                + "See 'etcd --help'.", env.getMessage());
        assertEquals(Duration.ofSeconds(3), ServerConfig.from(FlagParser.parse(new String[0],
                Map.of("ETCD_RAFT_WRITE_TIMEOUT", "3s")).values()).options().tuning().raftWriteTimeout());
    }

    @Test
    void freelistTypeIsArrayOnlyForArrayAsEtcdParsesIt() throws Exception {
        assertTrue(tuning("--backend-bbolt-freelist-type=array").arrayFreelist());
        assertFalse(tuning("--backend-bbolt-freelist-type=map").arrayFreelist());
        assertFalse(tuning("--backend-bbolt-freelist-type=hash").arrayFreelist(), "etcd takes any other value as map");
    }

    @Test
    void startUpAndDowngradeFlags() throws Exception {
        assertFalse(tuning("--initial-election-tick-advance=false").initialElectionTickAdvance());
        assertTrue(tuning("--memory-mlock").memoryMlock());
        assertTrue(tuning("--experimental-memory-mlock=true").memoryMlock(), "the 3.5 spelling");
        assertEquals(Duration.ofMillis(200), tuning("--downgrade-check-time=200ms").downgradeCheckTime());
        assertEquals(Duration.ofSeconds(1), tuning("--experimental-downgrade-check-time=1s").downgradeCheckTime());
        assertTrue(tuning("--peer-skip-client-san-verification=true").peerSkipClientSanVerification());
        assertTrue(tuning("--experimental-peer-skip-client-san-verification=true").peerSkipClientSanVerification());
        ConfigException both = assertThrows(ConfigException.class,
                () -> config("--experimental-memory-mlock=true", "--memory-mlock=true"));
        assertEquals("cannot set --experimental-memory-mlock and --memory-mlock at the same time, please use --memory-mlock only",
                both.getMessage());
        ConfigException bad = assertThrows(ConfigException.class, () -> config("--initial-election-tick-advance=perhaps"));
        assertEquals(2, bad.exitCode());
    }

    @Test
    void clientCertPairIsTheClientSidesDialingPair() throws Exception {
        ServerConfig c = config("--client-cert-file=/pki/client.crt", "--client-key-file=/pki/client.key");
        assertEquals(Path.of("/pki/client.crt"), c.clientSecurity().dialCertFile());
        assertEquals(Path.of("/pki/client.key"), c.clientSecurity().dialKeyFile());
        assertEquals(null, config().clientSecurity().dialCertFile());
    }

    @Test
    void featureGatesAndTheirStageSwitches() throws Exception {
        assertTrue(tuning().txnModeWriteWithSharedBuffer());
        assertFalse(tuning("--feature-gates=TxnModeWriteWithSharedBuffer=false").txnModeWriteWithSharedBuffer());
        assertFalse(tuning("--experimental-txn-mode-write-with-shared-buffer=false").txnModeWriteWithSharedBuffer());
        assertTrue(tuning("--feature-gates=SetMemberLocalAddr=true").setMemberLocalAddr());
        assertTrue(tuning("--feature-gates=StopGRPCServiceOnDefrag=true").stopGrpcServiceOnDefrag());
        assertTrue(tuning("--experimental-stop-grpc-service-on-defrag=true").stopGrpcServiceOnDefrag());
        assertTrue(tuning("--feature-gates=AllBeta=false").txnModeWriteWithSharedBuffer(),
                "AllBeta=false leaves a beta gate at its default");
        assertFalse(tuning("--feature-gates=AllBeta=true,TxnModeWriteWithSharedBuffer=false").txnModeWriteWithSharedBuffer(),
                "a gate given by name wins over its stage's switch");
    }

    @Test
    void allAlphaIsRefusedWhileAnAlphaGateCannotBeHonouredAndSwitchesTheOthersOnOtherwise() throws Exception {
        String why = FeatureGates.notYet("AllAlpha");
        if (why != null) {
            ConfigException e = assertThrows(ConfigException.class, () -> config("--feature-gates=AllAlpha=true"));
            assertTrue(e.getMessage().startsWith("--feature-gates=AllAlpha=true is not supported by this server yet (it would switch on "),
                    e.getMessage());
        } else {
            MemberTuning t = tuning("--feature-gates=AllAlpha=true");
            assertTrue(t.setMemberLocalAddr() && t.stopGrpcServiceOnDefrag());
            assertTrue(config("--feature-gates=AllAlpha=true").options().initialCorruptCheck());
        }
        assertEquals(null, FeatureGates.notYet("AllBeta"), "every beta gate is honoured");
    }

    @Test
    void tracingIsRefusedNamingTheFlagItsSettingsAreAcceptedWhileItIsOff() throws Exception {
        config("--distributed-tracing-address=collector:4317", "--distributed-tracing-service-name=kv",
                "--distributed-tracing-instance-id=a", "--distributed-tracing-sampling-rate=100", "--enable-distributed-tracing=false");
        ConfigException on = assertThrows(ConfigException.class, () -> config("--enable-distributed-tracing"));
        assertEquals("--enable-distributed-tracing=true is not supported by this server yet (distributed tracing is not "
                + "implemented); remove the flag or give it its default value", on.getMessage());
        ConfigException old = assertThrows(ConfigException.class, () -> config("--experimental-enable-distributed-tracing=true"));
        assertTrue(old.getMessage().startsWith("--experimental-enable-distributed-tracing=true is not supported"), old.getMessage());
        assertEquals(2, assertThrows(ConfigException.class, () -> config("--distributed-tracing-sampling-rate=often")).exitCode());
    }

    @Test
    void metricsLevelOtherThanExtensiveIsBasicAsInEtcd34() throws Exception {
        assertFalse(config("--metrics=foo").options().metricsExtensive());
        assertFalse(config("--metrics=basic").options().metricsExtensive());
        assertTrue(config("--metrics=extensive").options().metricsExtensive());
    }
}
