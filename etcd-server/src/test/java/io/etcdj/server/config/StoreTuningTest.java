package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lease checkpoint gates and the compaction batch flags, under each of their spellings. */
class StoreTuningTest {
    private static StoreTuning tuning(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values()).options().storeTuning();
    }

    @Test
    void defaultsAreEtcdsButLeaseCheckpointsAreOnAndPersisted() throws Exception {
        StoreTuning t = tuning();
        // the deliberate difference (etcd #9395): a lease's remaining TTL survives a leader change
        assertTrue(t.leaseCheckpoint());
        assertTrue(t.leaseCheckpointPersist());
        assertEquals(StoreTuning.DEFAULTS, t);
        assertEquals(Duration.ofMinutes(5), t.leaseCheckpointInterval());
        assertEquals(1000, t.compactionBatchLimit());
        assertEquals(Duration.ofMillis(10), t.compactionSleepInterval());
    }

    @Test
    void etcdsFlagsTurnCheckpointsOffAndPersistenceWithThem() throws Exception {
        for (String[] off : new String[][] {{"--experimental-enable-lease-checkpoint=false"},
            {"--feature-gates=LeaseCheckpoint=false"}}) {
            StoreTuning t = tuning(off);
            assertFalse(t.leaseCheckpoint(), off[0]);
            assertFalse(t.leaseCheckpointPersist(), off[0]);
        }
        StoreTuning notPersisted = tuning("--experimental-enable-lease-checkpoint-persist=false");
        assertTrue(notPersisted.leaseCheckpoint());
        assertFalse(notPersisted.leaseCheckpointPersist());
    }

    @Test
    void leaseCheckpointsByGateOrByTheOldFlags() throws Exception {
        assertTrue(tuning("--feature-gates=LeaseCheckpoint=true").leaseCheckpoint());
        StoreTuning old = tuning("--experimental-enable-lease-checkpoint", "--experimental-enable-lease-checkpoint-persist=true");
        assertTrue(old.leaseCheckpoint());
        assertTrue(old.leaseCheckpointPersist());
        assertTrue(tuning("--feature-gates=LeaseCheckpoint=true,LeaseCheckpointPersist=true").leaseCheckpointPersist());
    }

    @Test
    void persistenceWithoutCheckpointsStopsTheStartWithEtcdsError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> tuning("--feature-gates=LeaseCheckpoint=false,LeaseCheckpointPersist=true"));
        assertEquals("enabling feature gate LeaseCheckpointPersist requires enabling feature gate LeaseCheckpoint", e.getMessage());
        assertThrows(ConfigException.class, () -> tuning("--experimental-enable-lease-checkpoint=false",
                "--experimental-enable-lease-checkpoint-persist=true"));
    }

    @Test
    void compactionBatchesUnderBothSpellingsAndZeroMeansTheDefault() throws Exception {
        assertEquals(5, tuning("--experimental-compaction-batch-limit=5").compactionBatchLimit());
        assertEquals(100, tuning("--compaction-batch-limit=100").compactionBatchLimit());
        assertEquals(Duration.ofSeconds(1), tuning("--compaction-sleep-interval=1s").compactionSleepInterval());
        assertEquals(Duration.ofMillis(50), tuning("--experimental-compaction-sleep-interval=50ms").compactionSleepInterval());
        assertEquals(1000, tuning("--compaction-batch-limit=0").compactionBatchLimit());
        assertEquals(Duration.ofMillis(10), tuning("--compaction-sleep-interval=0s").compactionSleepInterval());
    }

    @Test
    void malformedValuesGetGoFlagErrors() {
        ConfigException limit = assertThrows(ConfigException.class, () -> tuning("--compaction-batch-limit=x"));
        assertTrue(limit.getMessage().startsWith("invalid value \"x\" for flag -compaction-batch-limit"), limit.getMessage());
        ConfigException sleep = assertThrows(ConfigException.class, () -> tuning("--compaction-sleep-interval=10"));
        assertTrue(sleep.getMessage().startsWith("invalid value \"10\" for flag -compaction-sleep-interval"), sleep.getMessage());
    }
}
