package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The suite with each member on a network namespace of its own (a host with its own interface and
 * address), peers talking over veth links through a bridge: kill, pause and isolation (the
 * member's link taken down). Skipped, saying why, where this machine cannot make namespaces.
 */
class NamespacesIT {
    private static final Path ROOT = Path.of(System.getProperty("robustness.projectRoot", "..")).toAbsolutePath().normalize();

    @Test
    void ourServerKeepsEveryGuaranteeAcrossRealInterfaces() throws Exception {
        Prerequisites.requireCommand("ip", "iproute2");
        String why = null;
        try {
            Namespaces.create(1).close();
        } catch (Exception e) {
            why = e.getMessage();
        }
        Prerequisites.optional(why == null, "root with network namespaces (" + why + ")");
        long seed = Long.getLong("robustness.seed", System.currentTimeMillis() % 100000);
        RobustnessRun.Report r = RobustnessRun.run(new RobustnessRun.Config(Cluster.Server.OURS, ROOT,
                Files.createTempDirectory("robustness-netns-").resolve("run-" + seed), Integer.getInteger("robustness.seconds", 20),
                seed, 10, List.of(Faults.Kind.values()), false, true));
        System.out.println("netns run, " + r.summary());
        assertTrue(r.passed(), r.summary());
    }
}
