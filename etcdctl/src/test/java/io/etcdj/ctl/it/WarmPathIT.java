package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.RunningCommand;
import io.etcdj.harness.StrayProcesses;
import io.etcdj.harness.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same command lines through bin/etcdctl's warm path (the resident server) and its direct path
 * (a JVM per call, ETCDJ_NO_DAEMON=1): stdout, stderr and exit codes must not differ. The server
 * runs in a temporary directory of its own (ETCDJ_WARM_DIR), so a user's real server is never used,
 * and is stopped afterwards.
 *
 * <p>Warm runs get a JAVA_OPTS no JVM accepts: the direct path cannot start, so a warm run that
 * passes was served by the resident server and not by the fallback.
 */
class WarmPathIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path ETCDCTL = ROOT.resolve("bin/etcdctl");
    private static final Path ETCDUTL = ROOT.resolve("bin/etcdutl");
    private static final String NO_JVM = "-XX:+ThisOptionDoesNotExist";
    private static final long DEADLINE_SECONDS = 90;

    private static RealEtcd etcd;
    private static Path temp;
    private static Path warmDir;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("warm");
        temp = TempDirs.create("etcdctl-warm-it-");
        warmDir = temp.resolve("warm");
        // The first call starts the server in the background and runs the direct way.
        Run first = direct(temp, null, "version");
        assertEquals(0, first.code, first.toString());
        Run probe = Eventually.poll(Duration.ofSeconds(DEADLINE_SECONDS), Duration.ofMillis(200),
                () -> warm(temp, null, "version"), p -> p.code == 0);
        assertEquals(0, probe.code, "the warm server never answered: " + probe);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            stopServers();
        } finally {
            if (etcd != null) {
                etcd.close();
            }
            TempDirs.delete(temp);
        }
    }

    /** Every process started for this test's server directory: the server, and clients left by a failure. */
    private static void stopServers() throws InterruptedException {
        if (warmDir == null) {
            return;
        }
        StrayProcesses.stopAllUnder(warmDir);
    }

    @Test
    void putGetDelAreTheSame() throws Exception {
        same(null, "put", "wk", "v1");
        same(null, "get", "wk");
        same(null, "get", "wk", "-w", "json");
        same(null, "get", "w", "--prefix", "--keys-only");
        direct(temp, null, "put", "gone-w", "x");
        direct(temp, null, "put", "gone-d", "x");
        Run warm = warm(temp, null, "del", "gone-w");
        Run direct = direct(temp, null, "del", "gone-d");
        assertEquals(direct.toString(), warm.toString());
        assertEquals("1\n", warm.out, warm.toString());
        same(null, "del", "gone-w");
    }

    @Test
    void errorsKeepTheirTextAndExitCode() throws Exception {
        same(null, "get");
        same(null, "put");
        same(null, "put", "--bogus");
        same(null, "nosuch");
        Run r = same(null, "--endpoints=127.0.0.1:1", "--command-timeout=1s", "get", "a");
        assertEquals(1, r.code);
    }

    @Test
    void environmentVariablesAreTheCallers() throws Exception {
        Run r = same(null, Map.of("ETCDCTL_WRITE_OUT", "fields"), "get", "wk-env");
        assertEquals(0, r.code);
        same(null, Map.of("ETCDCTL_HEX", "true", "ETCDCTL_NOPE", "1"), "--hex", "get", "wk");
    }

    @Test
    void txnReadsItsScriptFromStdin() throws Exception {
        direct(temp, null, "put", "t1", "x");
        String script = "value(\"t1\") = \"x\"\n\nput t2 yes\n\nput t2 no\n\n";
        Run r = same(script, "txn");
        assertEquals("SUCCESS\n\nOK\n", r.out, r.toString());
        // the failure branch only reads, so both runs see the same revision
        r = same("value(\"t1\") = \"y\"\n\nput t3 yes\n\nget t1\n\n", "txn", "-w", "json");
        assertTrue(r.out.contains("\"succeeded\"") || r.out.contains("ResponseRange"), r.toString());
    }

    @Test
    void putReadsTheValueFromStdin() throws Exception {
        Run put = same("from stdin\n", "put", "stdin-key");
        assertEquals(0, put.code, put.toString());
        Run got = same(null, "get", "stdin-key", "--print-value-only");
        assertTrue(got.out.startsWith("from stdin"), got.toString());
    }

    @Test
    void snapshotSaveWritesRelativeToTheCallersDirectory() throws Exception {
        Path a = Files.createDirectories(temp.resolve("cwd-warm"));
        Path b = Files.createDirectories(temp.resolve("cwd-direct"));
        Run warm = warm(a, null, "snapshot", "save", "snap.db");
        Run direct = direct(b, null, "snapshot", "save", "snap.db");
        assertEquals(direct.masked(), warm.masked());
        assertEquals(0, warm.code, warm.toString());
        assertTrue(Files.size(a.resolve("snap.db")) > 0, "the snapshot is in the caller's directory");
        assertTrue(Files.exists(b.resolve("snap.db")));
        same(null, "snapshot", "save", "no/such/dir/snap.db");
    }

    @Test
    void etcdutlRunsTheSame() throws Exception {
        Run warm = run(ETCDUTL, temp, null, Map.of("JAVA_OPTS", NO_JVM), "version");
        Run direct = run(ETCDUTL, temp, null, Map.of("ETCDJ_NO_DAEMON", "1"), "version");
        assertEquals(direct.toString(), warm.toString());
        assertEquals(0, warm.code, warm.toString());
        Path missing = temp.resolve("missing.db");
        warm = run(ETCDUTL, temp, null, Map.of("JAVA_OPTS", NO_JVM), "snapshot", "status", missing.toString());
        direct = run(ETCDUTL, temp, null, Map.of("ETCDJ_NO_DAEMON", "1"), "snapshot", "status", missing.toString());
        assertEquals(direct.toString(), warm.toString());
        assertEquals(1, warm.code);
    }

    @Test
    void concurrentCallsKeepTheirOwnStreams() throws Exception {
        int n = 6;
        for (int i = 0; i < n; i++) {
            direct(temp, null, "put", "conc" + i, "value-" + i);
        }
        List<CompletableFuture<Run>> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String key = "conc" + i;
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return warm(temp, null, "get", key, "--print-value-only");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (int i = 0; i < n; i++) {
            Run r = runs.get(i).get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            assertEquals("value-" + i + "\n", r.out, r.toString());
            assertEquals("", r.err);
            assertEquals(0, r.code);
        }
    }

    @Test
    void ctrlCEndsAWatchWithTheSameOutputAndExitCode() throws Exception {
        Run put = direct(temp, null, "put", "watched", "w1", "-w", "json");
        String rev = put.out.replaceAll(".*\"revision\":(\\d+).*\\s*", "$1");
        Run warm = interrupted(Map.of("JAVA_OPTS", NO_JVM), "watch", "watched", "--rev=" + rev);
        Run direct = interrupted(Map.of("ETCDJ_NO_DAEMON", "1"), "watch", "watched", "--rev=" + rev);
        assertEquals("PUT\nwatched\nw1\n", warm.out, warm.toString());
        assertEquals(direct.toString(), warm.toString());
        assertEquals(130, warm.code);
    }

    @Test
    void aKilledClientEndsItsCommandInTheServer() throws Exception {
        try (RunningCommand holder = command(ETCDCTL, temp, Map.of("JAVA_OPTS", NO_JVM), "lock", "warm-lock").start()) {
            holder.nextLines(1, Duration.ofSeconds(DEADLINE_SECONDS));
            holder.kill();
            holder.endsWithin(Duration.ofSeconds(DEADLINE_SECONDS));
        }
        // Had the server kept running the lock command, its session would keep the lock forever.
        try (RunningCommand next = command(ETCDCTL, temp, Map.of("JAVA_OPTS", NO_JVM), "lock", "warm-lock").start()) {
            String key = next.nextLines(1, Duration.ofSeconds(DEADLINE_SECONDS)).get(0);
            assertTrue(key.startsWith("warm-lock/"), key);
            next.signal("TERM");
            assertEquals(143, next.finish(Duration.ofSeconds(DEADLINE_SECONDS)).exitCode(),
                    "SIGTERM ends a warm call as it ends a JVM");
        }
    }

    @Test
    void lockWithACommandRunsItAsTheCallersChild() throws Exception {
        // The server hands this call back to run directly, so the direct path must be able to start here.
        String script = "echo \"in $(pwd -P)\"; exit 3";
        Run warm = run(ETCDCTL, temp, null, Map.of(), "lock", "cmd-lock", "--", "sh", "-c", script);
        Run direct = run(ETCDCTL, temp, null, Map.of("ETCDJ_NO_DAEMON", "1"), "lock", "cmd-lock", "--", "sh", "-c",
                script);
        assertEquals(direct.toString(), warm.toString());
        assertEquals("in " + temp.toRealPath() + "\n", warm.out);
        assertEquals(3, warm.code);
    }

    // ---- running the launcher ----

    private static Run same(String stdin, String... args) throws Exception {
        return same(stdin, Map.of(), args);
    }

    private static Run same(String stdin, Map<String, String> env, String... args) throws Exception {
        Map<String, String> w = new HashMap<>(env);
        w.put("JAVA_OPTS", NO_JVM);
        Map<String, String> d = new HashMap<>(env);
        d.put("ETCDJ_NO_DAEMON", "1");
        Run warm = run(ETCDCTL, temp, stdin, w, args);
        Run direct = run(ETCDCTL, temp, stdin, d, args);
        assertEquals(direct.masked(), warm.masked(), "warm vs direct for " + List.of(args));
        return warm;
    }

    private static Run warm(Path cwd, String stdin, String... args) throws Exception {
        return run(ETCDCTL, cwd, stdin, Map.of("JAVA_OPTS", NO_JVM), args);
    }

    private static Run direct(Path cwd, String stdin, String... args) throws Exception {
        return run(ETCDCTL, cwd, stdin, Map.of("ETCDJ_NO_DAEMON", "1"), args);
    }

    private static Command command(Path launcher, Path cwd, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        return Command.of(cmd).dir(cwd)
                .withoutEnvIf(k -> k.startsWith("ETCDCTL") || k.startsWith("ETCDJ") || k.equals("JAVA_OPTS"))
                .env("ETCDCTL_API", "3").env("ETCDCTL_ENDPOINTS", etcd.endpoint()).env("ETCDJ_WARM_DIR", warmDir.toString())
                .env(env).timeout(Duration.ofSeconds(DEADLINE_SECONDS));
    }

    private static Run run(Path launcher, Path cwd, String stdin, Map<String, String> env, String... args)
            throws Exception {
        Command c = command(launcher, cwd, env, args);
        if (stdin != null) {
            c.stdin(stdin);
        }
        Command.Result r = c.run();
        return new Run(r.stdout(), r.stderr(), r.exitCode());
    }

    /** Runs until the first line of output, then sends SIGINT (Ctrl-C) to the launcher's process. */
    private static Run interrupted(Map<String, String> env, String... args) throws Exception {
        try (RunningCommand p = command(ETCDCTL, temp, env, args).start()) {
            // the watch prints the event's three lines at once; read them before the signal
            p.nextLines(3, Duration.ofSeconds(DEADLINE_SECONDS));
            p.signal("INT");
            Command.Result r = p.finish(Duration.ofSeconds(DEADLINE_SECONDS));
            return new Run(r.stdout(), r.stderr(), r.exitCode());
        }
    }

    private record Run(String out, String err, int code) {
        /** Times and durations differ from run to run; everything else must not. */
        String masked() {
            String e = err.replaceAll("(?m)^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6} ", "<TIME> ")
                    .replaceAll("\"ts\":(\"[^\"]+\"|[0-9.e+]+)", "\"ts\":<TS>")
                    .replaceAll("\"took\":[0-9.e+-]+", "\"took\":<TOOK>");
            return new Run(out, e, code).toString();
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
