package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The launcher at a pseudo-terminal ({@code script -qfec}): stdin, stdout and stderr are the terminal. */
    private static Process atTerminal(LauncherHarness h, String... args) throws Exception {
        StringBuilder line = new StringBuilder();
        for (String w : launcher(args)) {
            line.append(line.length() == 0 ? "" : " ").append(quote(w));
        }
        ProcessBuilder pb = new ProcessBuilder("script", "-qfec", line.toString(), "/dev/null")
                .directory(h.dir.toFile()).redirectErrorStream(true)
                .redirectOutput(h.dir.resolve("screen").toFile());
        pb.environment().remove("ETCD_BIN");
        pb.environment().put("NO_COLOR", "1");
        pb.environment().put("TERM", "xterm");
        return pb.start();
    }

    private static String screen(LauncherHarness h) throws Exception {
        return Files.readString(h.dir.resolve("screen"), StandardCharsets.UTF_8);
    }

    /** The screen without the progress line's drawings and its final erasing: what the user keeps seeing. */
    private static String withoutProgress(String screen) {
        return DRAWING.matcher(screen).replaceAll("").replace(ERASE, "");
    }

    @Test
    void detachedAtATerminalDrawsTheMembersServingAndErasesTheLine() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3));
            Process p = atTerminal(h, "up", "--detach", "-f", "cluster.yml");
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "up -d returns once the cluster is up");
            String screen = screen(h);
            assertEquals(0, p.exitValue(), screen);
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
            ProcessBuilder pb = new ProcessBuilder(launcher("up", "--detach", "-f", "cluster.yml")).directory(h.dir.toFile());
            pb.environment().remove("ETCD_BIN");
            pb.environment().put("TERM", "xterm");
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            String stdout = new String(out, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), stdout + new String(err, StandardCharsets.UTF_8));
            assertEquals("", new String(err, StandardCharsets.UTF_8), "nothing on stderr");
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
            Process p = atTerminal(h, "up", "-f", "cluster.yml", "--no-color");
            try {
                Eventually.get("\"cluster is up\"", Duration.ofSeconds(90), () -> {
                    if (!p.isAlive()) {
                        throw new Eventually.GiveUp("launcher exited early:\n" + screen(h));
                    }
                    return screen(h).contains("launcher | cluster is up: ") ? true : null;
                });
                h.run("stop", "-f", "cluster.yml").expectOk();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the foreground launcher exits once stopped");
            } finally {
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            String screen = screen(h);
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
