package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.RunningCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code up}'s progress line (beyond etcd): at a terminal ({@code script} runs the launcher on a
 * pseudo-terminal) the members started and serving clients are drawn on one line rewritten with
 * {@code \r} and erased before anything else is printed; in a pipe the output is the launcher's
 * usual lines and nothing else.
 */
class UpProgressIT {
    private static final String ERASE = "\r\033[K";
    /** One drawing of the progress line: erase, then the line's text up to the next carriage return. */
    private static final Pattern DRAWING = Pattern.compile("\r\033\\[Kcluster-launcher up: [^\r\n]*");
    private static final Pattern STARTED = Pattern.compile("started m[123] \\(pid \\d+\\) client http://127\\.0\\.0\\.1:\\d+ "
            + "peer http://127\\.0\\.0\\.1:\\d+ log .+\\.log");

    private static List<String> launcher(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.etcdj.launcher.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The launcher at a pseudo-terminal: stdin, stdout and stderr are the terminal, its screen the command's stdout. */
    private static RunningCommand atTerminal(LauncherHarness h, String... args) throws Exception {
        return Command.of(launcher(args)).atTerminal().dir(h.dir).withoutEnvIf(k -> k.equals("ETCD_BIN"))
                .env("NO_COLOR", "1").env("TERM", "xterm").start();
    }

    /** The screen without the progress line's drawings and its final erasing: what the user keeps seeing. */
    private static String withoutProgress(String screen) {
        return DRAWING.matcher(screen).replaceAll("").replace(ERASE, "");
    }

    @Test
    void detachedAtATerminalDrawsTheMembersServingAndErasesTheLine() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3));
            Command.Result r;
            try (RunningCommand p = atTerminal(h, "up", "--detach", "-f", "cluster.yml")) {
                // up -d returns once the cluster is up
                r = p.finish(Duration.ofSeconds(120));
            }
            String screen = r.stdout();
            assertEquals(0, r.exitCode(), screen);
            assertTrue(screen.contains(ERASE + "cluster-launcher up: serving clients: "), screen);
            assertTrue(screen.contains(" of 3 members ("), screen);
            // erased before the first line of the usual output, which then starts at the line's beginning
            assertTrue(screen.contains(ERASE + "etcd binary: "), screen);
            List<String> kept = withoutProgress(screen).replace("\r", "").lines().toList();
            assertTrue(kept.get(0).startsWith("etcd binary: " + LauncherHarness.etcd() + " ("), screen);
            for (int i = 1; i <= 3; i++) {
                assertTrue(STARTED.matcher(kept.get(i)).matches(), kept.get(i));
            }
            assertTrue(kept.get(4).startsWith("cluster is up; launcher pid "), kept.get(4));
            assertEquals(5, kept.size(), screen);
            assertFalse(withoutProgress(screen).contains("\033"), "nothing but the progress line uses escapes: " + screen);
        }
    }

    @Test
    void detachedInAPipePrintsTheUsualLinesOnly() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3));
            Command.Result r = Command.of(launcher("up", "--detach", "-f", "cluster.yml")).dir(h.dir)
                    .withoutEnvIf(k -> k.equals("ETCD_BIN")).env("TERM", "xterm").timeout(Duration.ofSeconds(120)).run();
            String stdout = r.stdout();
            assertEquals(0, r.exitCode(), r.output());
            assertEquals("", r.stderr(), "nothing on stderr");
            List<String> lines = stdout.lines().toList();
            assertEquals(5, lines.size(), stdout);
            assertTrue(lines.get(0).startsWith("etcd binary: " + LauncherHarness.etcd() + " ("), stdout);
            for (int i = 1; i <= 3; i++) {
                assertTrue(STARTED.matcher(lines.get(i)).matches(), lines.get(i));
            }
            assertTrue(lines.get(4).startsWith("cluster is up; launcher pid "), stdout);
            assertFalse(stdout.contains("\r") || stdout.contains("\033"), stdout);
        }
    }

    @Test
    void inTheForegroundTheLineMakesRoomForEveryLogLine() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3));
            String screen;
            try (RunningCommand p = atTerminal(h, "up", "-f", "cluster.yml", "--no-color")) {
                p.requireStdout("\"cluster is up\"", Duration.ofSeconds(90), s -> s.contains("launcher | cluster is up: "));
                h.run("stop", "-f", "cluster.yml").expectOk();
                assertTrue(p.endsWithin(Duration.ofSeconds(60)), "the foreground launcher exits once stopped");
                screen = p.finish(Duration.ofSeconds(10)).stdout();
            }
            assertTrue(screen.contains(ERASE + "cluster-launcher up: starting: "), screen);
            assertTrue(screen.contains(ERASE + "cluster-launcher up: serving clients: "), screen);
            int up = screen.indexOf("launcher | cluster is up: ");
            assertFalse(screen.substring(up).contains("cluster-launcher up: "), "no progress line once the cluster is up");
            // every log line starts at the beginning of a line: nothing of the progress line is left before it
            for (String line : withoutProgress(screen).replace("\r", "").split("\n")) {
                if (!line.isEmpty()) {
                    assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d (m[123]|launcher) +\\| .*"), "a whole log line: " + line);
                }
            }
        }
    }
}
