package com.example.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.test.EtcdClusterExtension;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The service's own tests, on the jetcd-test extension as a jetcd project writes them. */
class FeatureFlagsTest {
    @RegisterExtension
    static final EtcdClusterExtension cluster = EtcdClusterExtension.builder().withNodes(3).build();

    @Test
    void aFlagSetByOneInstanceReachesAnother() throws Exception {
        try (Client a = Client.builder().target("cluster://" + cluster.clusterName()).build();
                Client b = Client.builder().target("cluster://" + cluster.clusterName()).build();
                FeatureFlags writer = new FeatureFlags(a, "/flags/");
                FeatureFlags reader = new FeatureFlags(b, "/flags/")) {
            writer.set("dark-mode", "on");
            await(() -> reader.get("dark-mode"), Optional.of("on"));
            writer.remove("dark-mode");
            await(() -> reader.get("dark-mode"), Optional.empty());
        }
    }

    @Test
    void flagsSurviveARestartOfTheWholeCluster() throws Exception {
        try (Client a = Client.builder().endpoints(cluster.clientEndpoints().toArray(URI[]::new)).build();
                FeatureFlags flags = new FeatureFlags(a, "/restart/")) {
            flags.set("beta", "10%");
            cluster.restart(200, TimeUnit.MILLISECONDS);
            // a new instance reads the flag from the restarted cluster; the old one's watch resumes
            try (Client b = Client.builder().endpoints(cluster.clientEndpoints().toArray(URI[]::new)).build();
                    FeatureFlags fresh = new FeatureFlags(b, "/restart/")) {
                assertEquals(Optional.of("10%"), fresh.get("beta"));
                fresh.set("beta", "50%");
                await(() -> flags.get("beta"), Optional.of("50%"));
            }
        }
    }

    static <T> void await(Supplier<T> actual, T expected) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!expected.equals(actual.get()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(20);
        }
        assertTrue(expected.equals(actual.get()), "expected " + expected + " but saw " + actual.get());
    }
}
