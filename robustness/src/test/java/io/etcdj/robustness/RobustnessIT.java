package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.Resources;
import io.etcdj.harness.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fault-injection suite in CI's budget: two short runs against our server, one against the
 * real etcd (the control, which must pass the same checks), and the live negative control that
 * proves the checker sees what it should. {@code -Drobustness.runs=N -Drobustness.seconds=S}
 * change the budget; the soak runner (scripts/robustness-soak.sh) runs for as long as asked.
 */
class RobustnessIT {
    private static final int RUNS = Integer.getInteger("robustness.runs", 2);
    private static final int SECONDS = Integer.getInteger("robustness.seconds", 20);
    /**
     * The negative control's run: m1 is cut off a second in and its clients' serializable reads go
     * stale as soon as the others write, so a few seconds of isolation show it as well as 20.
     */
    private static final int STALE_CONTROL_SECONDS = Integer.getInteger("robustness.staleSeconds", 8);
    private static final long SEED = Long.getLong("robustness.seed", System.currentTimeMillis() % 100000);
    private static final Path ROOT = Path.of(System.getProperty("robustness.projectRoot", "..")).toAbsolutePath().normalize();

    /** The negative control's runs, whose failing is the expected outcome: deleted however the test ends. */
    @RegisterExtension
    final Resources res = new Resources();

    /** Runs the suite in a new temp dir; a failed run's history stays there (its report says where). */
    private static List<RobustnessRun.Report> runs(Cluster.Server server, int runs, boolean staleControl) throws Exception {
        return runs(TempDirs.create("robustness-it-"), server, runs, staleControl);
    }

    private static List<RobustnessRun.Report> runs(Path dir, Cluster.Server server, int runs, boolean staleControl)
            throws Exception {
        List<RobustnessRun.Report> out = new ArrayList<>();
        int seconds = staleControl ? STALE_CONTROL_SECONDS : SECONDS;
        for (int i = 0; i < runs; i++) {
            RobustnessRun.Report r = RobustnessRun.run(new RobustnessRun.Config(server, ROOT, dir.resolve("run-" + (SEED + i)),
                    seconds, SEED + i, 10, List.of(Faults.Kind.values()), staleControl, false));
            System.out.println(server + " run " + (i + 1) + ", " + r.summary());
            out.add(r);
        }
        if (out.stream().allMatch(RobustnessRun.Report::passed)) {
            Files.deleteIfExists(dir);
        }
        return out;
    }

    private static String describe(List<RobustnessRun.Report> reports) {
        StringBuilder sb = new StringBuilder();
        reports.forEach(r -> sb.append(r.summary()).append('\n'));
        return sb.toString();
    }

    @Test
    void ourServerKeepsEveryGuaranteeUnderFaults() throws Exception {
        List<RobustnessRun.Report> reports = runs(Cluster.Server.OURS, RUNS, false);
        System.out.println(Robustness.summary(Cluster.Server.OURS, reports));
        assertTrue(reports.stream().allMatch(RobustnessRun.Report::passed), describe(reports));
    }

    @Test
    void theRealEtcdPassesTheSameSuite() throws Exception {
        Prerequisites.requireExecutable(Path.of("/usr/bin/etcd"), "etcd-server");
        List<RobustnessRun.Report> reports = runs(Cluster.Server.ETCD, 1, false);
        assertTrue(reports.stream().allMatch(RobustnessRun.Report::passed), describe(reports));
    }

    /** Serializable reads from a member cut off from the others are stale: the checker must say so. */
    @Test
    void staleReadsFromAPartitionedMemberAreReported() throws Exception {
        RobustnessRun.Report r = runs(res.dir("robustness-it-stale-"), Cluster.Server.OURS, 1, true).get(0);
        assertFalse(r.passed(), "the checker accepted stale reads: " + r.summary());
        assertTrue(r.violations().stream().anyMatch(v -> v.contains("not linearizable")), r.summary());
    }
}
