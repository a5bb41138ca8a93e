package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The differential script ({@link DifferentialSteps}, which {@link DifferentialIT} runs in a pipe) typed
 * at a terminal: stdin, stdout and stderr of every command are a pseudo-terminal, as for a user at a
 * shell, and what a step types on standard input is typed ahead and ended with Ctrl-D. The real
 * etcdctl runs in one shell against one twin etcd, ours ({@code bin/etcdctl}, through the warm path
 * with a server of this test's own) in another against the other twin; each step must show the same
 * screen (stdout and stderr as they interleave, normalised like the pipe run) and exit code.
 */
@ExtendWith(TwinEtcdExtension.class)
class TerminalScriptIT {

    private static final Path ROOT = OurMembers.ROOT;
    private static final long STEP_TIMEOUT_SECONDS = 30;
    /** {@code -Detcdj.terminal.transcript=FILE} appends the real etcdctl's screens there, for reading. */
    private static final String TRANSCRIPT = System.getProperty("etcdj.terminal.transcript");
    /** {@code -Detcdj.terminal.direct=true} runs ours the direct way (a JVM per command) instead. */
    private static final boolean DIRECT = Boolean.getBoolean("etcdj.terminal.direct");

    private static Path temp;
    private static TerminalSession reference;
    private static TerminalSession ours;

    private String referenceLease = "0";
    private String ourLease = "0";

    @AfterAll
    static void stop() throws Exception {
        try {
            for (TerminalSession s : new TerminalSession[] {reference, ours}) {
                if (s != null) {
                    s.close();
                }
            }
        } finally {
            if (temp != null) {
                stopWarmServer();
                TempDirs.delete(temp);
            }
        }
    }

    private static void stopWarmServer() throws IOException, InterruptedException {
        warm("stop");
    }

    /** {@code bin/etcdj-warm status|stop} for this test's server directory. */
    private static String warm(String what) throws IOException, InterruptedException {
        return Command.of(ROOT.resolve("bin/etcdj-warm").toString(), what).mergeStderr()
                .env("ETCDJ_WARM_DIR", temp.resolve("warm").toString()).run().stdout();
    }

    /** What our warm server logged (its stderr): a failed step shows it, the directory is gone after. */
    private static String warmServerLog() {
        try (Stream<Path> logs = Files.list(temp.resolve("warm"))) {
            StringBuilder all = new StringBuilder();
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                all.append("--- warm server log ").append(log.getFileName()).append('\n').append(Files.readString(log));
            }
            return all.toString();
        } catch (IOException e) {
            return "(no warm server log: " + e + ")";
        }
    }

    private static Map<String, String> environment(boolean warm) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("ETCDCTL") || k.startsWith("ETCDJ_"));
        env.put("ETCDCTL_API", "3");
        env.put("TERM", "xterm");
        if (warm && DIRECT) {
            env.put("ETCDJ_NO_DAEMON", "1");
        } else if (warm) {
            env.put("ETCDJ_WARM_DIR", temp.resolve("warm").toString());
            env.put("ETCDJ_WARM_IDLE", "60");
        }
        return env;
    }

    @TestFactory
    Stream<DynamicTest> sameScreenAsRealEtcdctl(TwinEtcdExtension.Twins twins) throws Exception {
        temp = TempDirs.create("etcdctl-tty-it-");
        Path snapshot = temp.resolve("snapshot.db");
        reference = new TerminalSession(environment(false));
        ours = new TerminalSession(environment(true));
        List<DifferentialSteps.Step> steps = new ArrayList<>(DifferentialSteps.script(snapshot));
        long[] took = new long[2];
        return Stream.concat(steps.stream().map(step -> DynamicTest.dynamicTest(step.name(), () -> {
            long t0 = System.nanoTime();
            TerminalSession.Screen expected = reference.run(line(step.env(), RealEtcd.ETCDCTL.toString(), twins.reference(),
                    DifferentialSteps.substitute(step.args(), referenceLease)), step.stdin(), step.inputStaysOpen(), STEP_TIMEOUT_SECONDS);
            long t1 = System.nanoTime();
            TerminalSession.Screen actual = ours.run(line(step.env(), ROOT.resolve("bin/etcdctl").toString(), twins.ours(),
                    DifferentialSteps.substitute(step.args(), ourLease)), step.stdin(), step.inputStaysOpen(), STEP_TIMEOUT_SECONDS);
            took[0] += t1 - t0;
            took[1] += System.nanoTime() - t1;
            Differ.Result want = new Differ.Result(expected.text(), "", expected.code(), expected.written());
            // our progress lines (beyond etcd) are erased once drawn: the screen left is what is compared
            Differ.Result got = DifferentialSteps.without35And36FlagLines(step,
                    new Differ.Result(TerminalSession.withoutProgressLines(actual.text()), "", actual.code(), actual.written()));
            if (TRANSCRIPT != null) {
                Files.writeString(Path.of(TRANSCRIPT), "$ etcdctl " + step.name() + "\n" + want.out() + "[exit "
                        + want.code() + "]\n", StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            referenceLease = DifferentialSteps.lease(want, referenceLease);
            ourLease = DifferentialSteps.lease(got, ourLease);
            if (DifferentialSteps.snapshotFromSeveralEndpoints(step, want, got)) {
                return;
            }
            if (step.protobuf() && expected.code() == 0) {
                String decoded = DifferentialSteps.decoded(step, want);
                assertTrue(decoded.contains("header {"), decoded);
                assertEquals(decoded, DifferentialSteps.decoded(step, got));
                assertEquals(want.code(), got.code());
                return;
            }
            assertEquals(Differ.normalise(want, twins.reference()).toString(),
                    Differ.normalise(got, twins.ours()).toString(), TerminalScriptIT::warmServerLog);
        })), Stream.of(DynamicTest.dynamicTest("ours ran through the " + (DIRECT ? "direct" : "warm") + " path", () -> {
            System.out.printf("TerminalScriptIT: %d steps at a terminal, real etcdctl %.1f s, ours %.1f s%n",
                    steps.size(), took[0] / 1e9, took[1] / 1e9);
            String status = warm("status");
            assertEquals(!DIRECT, status.contains("server pid"), "warm server: " + status);
        })));
    }

    private static String line(Map<String, String> vars, String tool, RealEtcd server, String... args) {
        List<String> words = new ArrayList<>();
        vars.forEach((k, v) -> words.add(k + "=" + v));
        words.add(tool);
        words.add("--endpoints=" + server.endpoint());
        words.addAll(List.of(args));
        return Command.shellLine(words);
    }
}
