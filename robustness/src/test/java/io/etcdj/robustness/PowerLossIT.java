package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The power-loss suite in CI's budget: a round of each variant on one member and a few on three
 * against our server, each trigger once on one member and the same few on three against the real
 * etcd (the control, which passes the same checks), and the negative control: our member with
 * --unsafe-no-fsync is caught losing acknowledged writes by scripts/power-loss.sh itself.
 * {@code -Dpowerloss.rounds=N} runs N rounds of each variant, {@code -Dpowerloss.variants=a,b},
 * {@code -Dpowerloss.controlVariants=a,b} and {@code -Dpowerloss.variants3=c,d} choose them, and
 * {@code -Dpowerloss.seed=S} repeats a run; the soak is the script with many rounds.
 */
class PowerLossIT {
    private static final Path ROOT = Path.of(System.getProperty("robustness.projectRoot", "..")).toAbsolutePath().normalize();
    private static final int ROUNDS = Integer.getInteger("powerloss.rounds", 1);
    private static final long SEED = Long.getLong("powerloss.seed", System.currentTimeMillis() % 100000);
    private static final String VARIANTS = System.getProperty("powerloss.variants",
            "random+cut,random+torn,snapshot+cut,snapshot+torn,defrag+cut,defrag+torn,compaction+cut,compaction+torn");
    private static final String VARIANTS3 = System.getProperty("powerloss.variants3", "random+cut,member-add+torn");
    /**
     * The real etcd's one-member variants: each trigger once, cut and torn alternating, which shows
     * the checks accept a correct server at every trigger and in both modes; ours runs all of them.
     */
    private static final String CONTROL_VARIANTS = System.getProperty("powerloss.controlVariants",
            "random+torn,snapshot+cut,defrag+torn,compaction+cut");
    private static final Pattern CLOSING = Pattern.compile("(\\d+) rounds, (\\d+) would not start, (\\d+) acknowledged writes lost");

    @BeforeAll
    static void powerfsRuns() {
        Prerequisites.optional(Files.exists(Path.of("/dev/fuse")), "/dev/fuse, for the powerfs filesystem");
        Prerequisites.require(PowerFs.unavailable());
    }

    private static List<PowerLossRound.Report> rounds(Path server, int members, String variants) throws Exception {
        List<PowerLossVariant> vs = PowerLossVariant.parse(variants, members);
        Path dir = TempDirs.create("power-loss-it-");
        PowerLoss.Options o = new PowerLoss.Options(server, members, ROUNDS * vs.size(), SEED, vs, dir, List.of());
        List<PowerLossRound.Report> reports = PowerLoss.run(o, System.out::println);
        System.out.println(PowerLoss.summary(reports));
        return reports;
    }

    private static void assertAllPassed(Path server, String variants) throws Exception {
        List<PowerLossRound.Report> reports = new ArrayList<>(rounds(server, 1, variants));
        reports.addAll(rounds(server, 3, VARIANTS3));
        StringBuilder failed = new StringBuilder();
        reports.stream().filter(r -> !r.passed()).forEach(r -> failed.append(r.summary()).append('\n'));
        assertTrue(failed.isEmpty(), PowerLoss.summary(reports) + "\n" + failed);
    }

    @Test
    void ourServerKeepsEveryAcknowledgedWriteThroughPowerCuts() throws Exception {
        assertAllPassed(ROOT.resolve("bin/etcd"), VARIANTS);
    }

    @Test
    void theRealEtcdKeepsEveryAcknowledgedWriteThroughPowerCuts() throws Exception {
        Path etcd = Path.of("/usr/bin/etcd");
        Prerequisites.requireExecutable(etcd, "etcd-server");
        assertAllPassed(etcd, CONTROL_VARIANTS);
    }

    /** Without fsync nothing is durable: the script must report lost writes and fail. */
    @Test
    void theScriptCatchesAMemberThatNeverFsyncs() throws Exception {
        Path dir = TempDirs.create("power-loss-it-nofsync-");
        try {
            Command.Result r = Command.of(ROOT.resolve("scripts/power-loss.sh").toString(), ROOT.resolve("bin/etcd").toString(),
                    "--rounds", "1", "--variant", "random+cut", "--seed", Long.toString(SEED), "--dir", dir.toString(),
                    "--", "--unsafe-no-fsync").mergeStderr().timeout(Duration.ofMinutes(5)).run();
            String out = r.stdout();
            System.out.println(out);
            List<String> lines = out.strip().lines().toList();
            Matcher m = CLOSING.matcher(lines.get(lines.size() - 1));
            assertTrue(m.matches(), "the last line is the summary: " + out);
            assertEquals("1", m.group(1), out);
            assertTrue(Long.parseLong(m.group(3)) > 0, "no acknowledged write reported lost: " + out);
            assertEquals(1, r.exitCode(), out);
        } finally {
            TempDirs.delete(dir);
        }
    }
}
