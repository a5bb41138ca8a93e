package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.command.CheckCommand;
import io.etcdj.harness.Command;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code check perf} and {@code check datascale} against a real etcd 3.4. etcdctl's perf check runs
 * a minute; here the run is cut to three seconds (the command's test constructor), so the test
 * checks the output's structure, that the verdict agrees with the exit code and the figures, and the
 * clean-up and compaction, while argument errors and help pages are compared with the real etcdctl's.
 */
class CheckIT {

    private static final Pattern OUTPUT = Pattern.compile(
            "((?:\\r [0-3] / 3 +[0-9]+\\.[0-9]{2}%(?: 00m0[0-9]s)?)+(?:\\r 3 / 3  100\\.00% [34]s\n)?)"
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

    /** One redraw of the counter with a bar: counters, the bar, percent, time left or spent, padding. */
    private static final Pattern BAR_FRAME =
            Pattern.compile(" (\\d+) / (\\d+) (B(o*m?)( *)!)( +\\d+\\.\\d{2}%)( \\d{2}m\\d{2}s| \\d+s)? *");
    private static final Pattern PLAIN_FRAME = Pattern.compile(" (\\d+) / (\\d+)  +\\d+\\.\\d{2}%( \\d{2}m\\d{2}s| \\d+s)?");
    private static final int COLUMNS = 100;

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
        Command.Result r = RealEtcd.realEtcdctl(cmd).run();
        return new Differ.Result(r.stdout(), r.stderr(), r.exitCode());
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

    /**
     * A datascale run by {@code etcdctl} (the real one or ours) as a process: with a controlling
     * terminal {@value #COLUMNS} columns wide and stdout in a file ({@code script} gives it the
     * terminal), or with no controlling terminal at all ({@code setsid}); returns stdout.
     */
    private static String datascaleRun(String etcdctl, String prefix, boolean controllingTerminal, Path dir)
            throws IOException, InterruptedException {
        String command = etcdctl + " --endpoints=" + etcd.endpoint() + " check datascale --prefix=" + prefix;
        Path out = dir.resolve(prefix.replace("/", "") + ".out");
        Command c = controllingTerminal
                ? Command.atTerminal("stty cols " + COLUMNS + "; " + command + " > " + out)
                : Command.of("sh", "-c", "setsid -w " + command + " > " + out + " < /dev/null");
        c.withoutEnv("ETCDCTL").withoutEnv("ETCDJ_").env("ETCDCTL_API", "3").env("ETCDJ_NO_DAEMON", "1")
                .timeout(Duration.ofSeconds(120)).run();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The counter's redraws of a datascale run's stdout. */
    private static List<String> frames(String out) {
        return Arrays.stream(out.replace("\n", "\r").split("\r"))
                .filter(f -> f.matches(" \\d+ / \\d+ .*")).toList();
    }

    /**
     * etcdctl's counter as its Go progress-bar library draws it, checked on the real etcdctl's output
     * and ours alike: with a controlling terminal (even with stdout in a file) every redraw is a bar
     * filling the terminal's width, ceil(done/total x cells) cells drawn; with none, no bar and no
     * padding. The lines around the counter are the same.
     */
    @Test
    void theCounterIsEtcdctlsWithAndWithoutAControllingTerminal(@TempDir Path dir) throws Exception {
        String ourEtcdctl = OurMembers.ROOT.resolve("bin/etcdctl").toString();
        int run = 0;
        for (String etcdctl : List.of(RealEtcd.ETCDCTL.toString(), ourEtcdctl)) {
            String withTerminal = datascaleRun(etcdctl, "/tty-" + run + "/", true, dir);
            List<String> barFrames = frames(withTerminal);
            assertTrue(barFrames.size() >= 2, etcdctl + ": " + withTerminal);
            for (String f : barFrames) {
                Matcher m = BAR_FRAME.matcher(f);
                assertTrue(m.matches(), etcdctl + " drew " + f);
                assertEquals(COLUMNS, f.length(), etcdctl + " fills the terminal's width: " + f);
                long done = Long.parseLong(m.group(1));
                long total = Long.parseLong(m.group(2));
                int cells = m.group(3).length() - 2;
                assertEquals((long) Math.ceil((double) done / total * cells), m.group(4).length(), etcdctl + ": " + f);
            }
            assertTrue(barFrames.get(barFrames.size() - 1).startsWith(" 10000 / 10000 Bo"), withTerminal);
            assertTrue(withTerminal.startsWith("Start data scale check for work load [10000 key-value pairs, "), withTerminal);
            assertTrue(withTerminal.matches("(?s).*\nPASS: Approximate system memory used : -?\\d+\\.\\d{2} MB\\.\n"), withTerminal);

            String without = datascaleRun(etcdctl, "/nott-" + run + "/", false, dir);
            List<String> plainFrames = frames(without);
            assertTrue(plainFrames.size() >= 2, etcdctl + ": " + without);
            for (String f : plainFrames) {
                assertTrue(PLAIN_FRAME.matcher(f).matches(), etcdctl + " without a terminal drew " + f);
            }
            assertTrue(without.matches("(?s).*\nPASS: Approximate system memory used : -?\\d+\\.\\d{2} MB\\.\n"), without);
            run++;
        }
    }
}
