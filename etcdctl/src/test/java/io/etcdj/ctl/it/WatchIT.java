package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.harness.Command;
import io.etcdj.harness.RunningCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Watch replays history from a revision and never ends by itself, so both etcdctls are stopped once
 * they printed the expected number of lines; the seed's watch sessions are the script. One real etcd
 * serves both (watching history writes nothing).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WatchIT {

    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("watch");
        // The seed's sequence: revisions 2 to 5.
        reference("put", "foo", "bar");
        reference("put", "foo1", "bar1");
        reference("put", "foo", "bar_new");
        reference("put", "foo1", "bar1_new");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static String reference(String... args) throws IOException, InterruptedException {
        return Command.of(etcd.etcdctlCommand(args)).env("ETCDCTL_API", "3").mergeStderr().run().stdout();
    }

    /** Reads the real etcdctl's stdout until it holds {@code lines} lines, then stops it. */
    private static String referenceLines(int lines, String... args) throws IOException, InterruptedException {
        try (RunningCommand p = Command.of(etcd.etcdctlCommand(args)).env("ETCDCTL_API", "3").start()) {
            return firstLines(p, lines);
        }
    }

    /** Its first {@code lines} lines of stdout, or all it printed when it ends (or 60 s pass) before. */
    private static String firstLines(RunningCommand c, int lines) throws InterruptedException {
        c.awaitStdout(Duration.ofSeconds(60), s -> s.chars().filter(ch -> ch == '\n').count() >= lines);
        String out = c.stdout();
        int end = 0;
        for (int seen = 0; seen < lines && end < out.length(); seen++) {
            int nl = out.indexOf('\n', end);
            end = nl < 0 ? out.length() : nl + 1;
        }
        return out.substring(0, end);
    }

    /** Runs ours in-process until it printed {@code lines} lines (or 20 s passed), then interrupts it. */
    private static String oursLines(int lines, String... args) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--endpoints=" + etcd.endpoint()));
        all.addAll(List.of(args));
        Thread t = new Thread(() -> new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()),
                new ByteArrayInputStream(new byte[0]), Map.of()));
        t.start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline && out.toString(StandardCharsets.UTF_8).split("\n", -1).length <= lines) {
            t.join(20);
        }
        t.interrupt();
        t.join(5000);
        String text = out.toString(StandardCharsets.UTF_8);
        int end = 0;
        for (int i = 0; i < lines && end >= 0; i++) {
            end = text.indexOf('\n', end) + 1;
            if (end == 0) {
                return text;
            }
        }
        return text.substring(0, end);
    }

    private static void same(int lines, String... args) throws Exception {
        String expected = referenceLines(lines, args);
        assertEquals(lines, expected.split("\n").length, "the real etcdctl printed " + expected);
        assertEquals(expected, oursLines(lines, args));
    }

    @Test
    @Order(1)
    void watchFromRevisionTwo() throws Exception {
        same(6, "watch", "--rev=2", "foo");
        assertEquals("PUT\nfoo\nbar\nPUT\nfoo\nbar_new\n", oursLines(6, "watch", "--rev=2", "foo"));
    }

    @Test
    @Order(2)
    void watchFromRevisionThreeWithPrevKv() throws Exception {
        same(3, "watch", "--rev=3", "foo");
        same(5, "watch", "--rev=4", "--prev-kv", "foo");
    }

    @Test
    @Order(3)
    void watchRangeAndPrefixAndHex() throws Exception {
        same(12, "watch", "--rev=2", "foo", "foo9");
        same(12, "watch", "--prefix", "--rev=2", "foo");
        same(6, "watch", "--rev=2", "foo", "--hex");
    }

    @Test
    @Order(4)
    void watchOtherFormats() throws Exception {
        same(12, "watch", "--rev=4", "--prev-kv", "foo", "-w", "fields");
        String json = oursLines(1, "watch", "--rev=5", "foo1", "-w", "json");
        assertTrue(json.startsWith("{\"Header\":{\"cluster_id\":"), json);
        assertTrue(json.contains("\"Events\":[{\"kv\":{\"key\":\"Zm9vMQ==\",\"create_revision\":3,\"mod_revision\":5,"
                + "\"version\":2,\"value\":\"YmFyMV9uZXc=\"}}],\"CompactRevision\":0,\"Canceled\":false,\"Created\":false}"),
                json);
    }

    @Test
    @Order(5)
    void execRunsCommandPerEvent() throws Exception {
        same(8, "watch", "--rev=2", "foo", "--", "sh", "-c", "echo $ETCD_WATCH_EVENT_TYPE $ETCD_WATCH_KEY "
                + "$ETCD_WATCH_REVISION $ETCD_WATCH_VALUE");
    }

    @Test
    @Order(5)
    void interactiveWatchesStartPerLineAndEndWithInput() throws Exception {
        PipedOutputStream feed = new PipedOutputStream();
        PipedInputStream stdin = new PipedInputStream(feed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int[] code = new int[1];
        Thread t = new Thread(() -> code[0] = new EtcdctlApp(RootCommand::tree).run(new String[] {
            "--endpoints=" + etcd.endpoint(), "watch", "-i"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), stdin, Map.of()));
        t.start();
        feed.write("bogus\nwatch --rev=2 foo\n".getBytes(StandardCharsets.UTF_8));
        feed.flush();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (out.toString(StandardCharsets.UTF_8).split("\n", -1).length <= 6 && System.nanoTime() < deadline) {
            t.join(20);
        }
        feed.close();
        t.join(10_000);
        assertEquals("PUT\nfoo\nbar\nPUT\nfoo\nbar_new\n", out.toString(StandardCharsets.UTF_8));
        assertEquals("Invalid command bogus (only support watch)\nError: Error reading watch request line: EOF\n",
                err.toString(StandardCharsets.UTF_8));
        assertEquals(3, code[0]);
    }

    @Test
    @Order(5)
    void keepAliveRenewsUntilStopped() throws Exception {
        String id = reference("lease", "grant", "60").split(" ")[1];
        same(1, "lease", "keep-alive", id);
        assertEquals("lease " + id + " keepalived with TTL(60)\n", oursLines(1, "lease", "keep-alive", id));
    }

    @Test
    @Order(5)
    void electionObserversSeeTheLeader() throws Exception {
        try (RunningCommand leader = Command.of(etcd.etcdctlCommand("elect", "myelection", "p1")).env("ETCDCTL_API", "3")
                .start()) {
            String campaigned = firstLines(leader, 2);
            assertTrue(campaigned.startsWith("myelection/") && campaigned.endsWith("\np1\n"), campaigned);
            same(2, "elect", "-l", "myelection");
            assertEquals(campaigned, oursLines(2, "elect", "-l", "myelection"));
        }
    }

    @Test
    @Order(6)
    void compactedRevisionCancelsTheWatch() throws Exception {
        reference("compaction", "5");
        Command.Result reference = Command.of(etcd.etcdctlCommand("watch", "--rev=2", "foo")).env("ETCDCTL_API", "3").run();
        String expectedErr = reference.stderr();
        int expectedCode = reference.exitCode();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(new String[] {"--endpoints=" + etcd.endpoint(), "watch",
            "--rev=2", "foo"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]), Map.of());
        assertEquals(expectedCode, code);
        assertEquals(expectedErr, err.toString(StandardCharsets.UTF_8));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
