package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Peer links through the launcher's proxy: partition, heal and delay. */
class FaultsIT {
    @Test
    void partitionedMemberCannotServeLinearizableReadsAndCatchesUpAfterHeal() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3, "faults: proxy"));
            h.run("up", "-d", "-f", "cluster.yml").expectOk();
            String url1 = h.state().member("m1").orElseThrow().clientUrls().get(0);
            String url2 = h.state().member("m2").orElseThrow().clientUrls().get(0);
            try (Kv m1 = new Kv(url1); Kv m2 = new Kv(url2)) {
                m2.put("before", "1");
                assertEquals("1", m1.get("before", 5).orElseThrow());

                h.run("partition", "m1", "-f", "cluster.yml").expectOk();
                assertTrue(h.run("status", "-f", "cluster.yml").expectOk().out().lines()
                        .anyMatch(l -> l.startsWith("| m1") && l.contains("partitioned")));
                // the majority side elects a leader if needed and keeps accepting writes
                Eventually.get("a put through m2 during the partition", Duration.ofSeconds(30),
                        () -> { m2.put("during", "2"); return true; });
                assertThrows(StatusRuntimeException.class, () -> m1.get("during", 3),
                        "a member cut off from its peers cannot confirm a linearizable read");

                h.run("heal", "-f", "cluster.yml").expectOk();
                assertEquals("2", Eventually.get("during on m1", Duration.ofSeconds(30), () -> m1.get("during", 2).orElse(null)));

                h.run("delay", "m2", "200", "-f", "cluster.yml").expectOk();
                assertTrue(h.run("status", "-f", "cluster.yml").expectOk().out().lines()
                        .anyMatch(l -> l.startsWith("| m2") && l.contains("delay 200ms")));
                Eventually.get("a put through m1 on a slow link", Duration.ofSeconds(30), () -> { m1.put("slow", "3"); return true; });
                assertEquals("3", Eventually.get("slow on m2", Duration.ofSeconds(30), () -> m2.get("slow", 5).orElse(null)));
                h.run("heal", "-f", "cluster.yml").expectOk();
            }
            h.run("stop", "-f", "cluster.yml").expectOk();
        }
    }

    @Test
    void faultCommandsNeedTheProxy() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(1));
            h.run("up", "-d", "-f", "cluster.yml").expectOk();
            LauncherHarness.Result r = h.run("partition", "m1", "-f", "cluster.yml");
            assertEquals(1, r.code());
            assertEquals("Error: fault injection needs \"faults: proxy\" in the cluster file\n", r.err());
            h.run("stop", "-f", "cluster.yml").expectOk();
        }
    }
}
