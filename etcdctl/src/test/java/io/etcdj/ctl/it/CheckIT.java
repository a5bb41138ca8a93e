package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.command.CheckCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code check perf} and {@code check datascale} against a real etcd 3.4. etcdctl's perf check runs
 * a minute; here the run is cut to three seconds (the command's test constructor), so the test
 * checks the output's structure, that the verdict agrees with the exit code and the figures, and the
 * clean-up and compaction, while argument errors and help pages are compared with the real etcdctl's.
 */
class CheckIT {

    private static final Pattern OUTPUT = Pattern.compile("((?:\\r [0-3] / 3 +[0-9]+\\.[0-9]{2}%(?: 00m0[0-9]s)?)+(?:\\r 3 / 3  100\\.00% [34]s\n)?)"
            + "((?:Compacting with revision [0-9]+\nCompacted with revision [0-9]+\n)?)"
            + "(PASS: Throughput is|FAIL: Throughput too low:) ([0-9]+) writes/s\n"
            + "(PASS: Slowest request took|Slowest request took too long:) ([0-9]+\\.[0-9]{6})s\n"
            + "(PASS: Stddev is|Stddev too high:) ([0-9]+\\.[0-9]{6})s\n"
            + "(PASS|FAIL)\n");

    private static final Pattern DATASCALE = Pattern.compile("Start data scale check for work load \\[10000 key-value "
            + "pairs, 1024 bytes per key-value, 50 concurrent clients\\]\\.\n"
            + "(?:\\r [0-9]+ / 10000 +[0-9]+\\.[0-9]{2}%(?: [0-9]{2}m[0-9]{2}s)?)*\\r 10000 / 10000  100\\.00% [0-9]+s\n"
            + "Defragmenting \"127\\.0\\.0\\.1:[0-9]+\"\nDefragmented \"127\\.0\\.0\\.1:[0-9]+\"\n"
            + "PASS: Approximate system memory used : -?[0-9]+\\.[0-9]{2} MB\\.\n");

    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("check-perf");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    /** Our etcdctl with check perf's run shortened to three seconds. */
    private static CommandLine shortRunTree(String command) {
        if (!"check".equals(command)) {
            return RootCommand.tree(command);
        }
        CommandLine root = new CommandLine(new RootCommand());
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> cls) throws Exception {
                return cls == CheckCommand.Perf.class ? (K) new CheckCommand.Perf(Duration.ofSeconds(3))
                        : CommandLine.defaultFactory().create(cls);
            }
        };
        root.addSubcommand("check", new CommandLine(new CheckCommand(), factory));
        return root;
    }

    private static Differ.Result ours(String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoints=" + etcd.endpoint()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(CheckIT::shortRunTree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        // help pages are 3.4's apart from the global flags etcdctl 3.6 added (NewerFlagsIT checks those)
        return DifferentialSteps.withoutNewerGlobalFlagLines(
                new Differ.Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code));
    }

    private static Differ.Result reference(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(RealEtcd.ETCDCTL.toString(), "--endpoints=" + etcd.endpoint()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.PIPE);
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCDCTL"));
        pb.environment().put("ETCDCTL_API", "3");
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Differ.Result(out, err, p.waitFor());
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void runsTheLoadAndGivesAVerdictThatMatchesTheFigures() {
        Differ.Result r = ours("check", "perf", "--load=s", "--prefix=/perf-a/", "--auto-compact");
        Matcher m = OUTPUT.matcher(r.out());
        assertTrue(m.matches(), r.toString());
        assertTrue(!m.group(2).isEmpty(), "--auto-compact compacts before the verdict: " + r);
        boolean throughputOk = m.group(3).startsWith("PASS");
        assertEquals(throughputOk, Integer.parseInt(m.group(4)) - 1 > 135, r.toString());
        assertEquals(m.group(5).startsWith("PASS"), Double.parseDouble(m.group(6)) <= 0.5, r.toString());
        assertEquals(m.group(7).startsWith("PASS"), Double.parseDouble(m.group(8)) <= 0.1, r.toString());
        boolean pass = throughputOk && m.group(5).startsWith("PASS") && m.group(7).startsWith("PASS");
        assertEquals(pass ? "PASS" : "FAIL", m.group(9), r.toString());
        assertEquals(pass ? 0 : 1, r.code(), r.toString());
        // The check's keys are gone afterwards.
        assertEquals("", ours("get", "/perf-a/", "--prefix").out());
    }

    @Test
    void refusesAPrefixWithKeysAndAnUnknownLoadAsEtcdctlDoes() throws Exception {
        assertEquals(0, ours("put", "/perf-b/k", "v").code());
        assertEquals(reference("check", "perf", "--prefix=/perf-b/").toString(),
                ours("check", "perf", "--prefix=/perf-b/").toString());
        assertEquals(reference("check", "perf", "--load=q").toString(), ours("check", "perf", "--load=q").toString());
        assertEquals(reference("check", "perf", "--help").toString(), ours("check", "perf", "--help").toString());
    }

    @Test
    void datascaleWritesTheLoadAndReportsTheMemoryGrowth() {
        Differ.Result r = ours("check", "datascale", "--prefix=/scale-a/", "--auto-defrag");
        assertEquals(0, r.code(), r.toString());
        assertTrue(DATASCALE.matcher(r.out()).matches(), r.toString());
        assertEquals("", ours("get", "/scale-a/", "--prefix").out());
    }

    @Test
    void datascaleErrorsAndHelpAsEtcdctl() throws Exception {
        assertEquals(0, ours("put", "/scale-b/k", "v").code());
        assertEquals(reference("check", "datascale", "--prefix=/scale-b/").toString(),
                ours("check", "datascale", "--prefix=/scale-b/").toString());
        assertEquals(reference("check", "datascale", "--load=huge").toString(),
                ours("check", "datascale", "--load=huge").toString());
        assertEquals(reference("check", "datascale", "--help").toString(), ours("check", "datascale", "--help").toString());
        assertEquals(reference("check", "--help").toString(), ours("check", "--help").toString());
    }
}
