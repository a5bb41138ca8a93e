package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.StrayProcesses;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The warm server's life, on a copy of the built checkout so the real build is never touched: it is
 * started by the first call, listed by {@code bin/etcdj-warm status}, replaced as soon as a jar of
 * its class path changes (the call that notices runs directly, with the new code), and ended by
 * {@code bin/etcdj-warm stop}.
 */
class WarmServerLifeIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final long DEADLINE_SECONDS = 90;
    private static final String VERSION = "etcdctl version: 3.4.23\nAPI version: 3.4\n";

    private Path temp;
    private Path copy;
    private Path warmDir;

    @BeforeEach
    void copyTheBuild() throws IOException {
        // The copy's launcher builds its client on first use, as on a fresh checkout.
        Prerequisites.requireCommand("cc", "gcc"); // the warm path's client is built on first use
        temp = TempDirs.create("etcdctl-warm-life-");
        copy = temp.resolve("checkout");
        warmDir = temp.resolve("warm");
        copyTree(ROOT.resolve("bin"), copy.resolve("bin"));
        copyTree(ROOT.resolve("etcdctl/target"), copy.resolve("etcdctl/target"));
    }

    @AfterEach
    void stopAndDelete() throws Exception {
        if (temp == null) {
            return;
        }
        StrayProcesses.stopAllUnder(temp);
        TempDirs.delete(temp);
    }

    @Test
    void startedOnFirstUseReplacedWhenTheBuildChangesStoppedOnRequest() throws Exception {
        Run first = run("bin/etcdctl", Map.of(), "version");
        assertEquals(VERSION, first.out, first.toString());
        long server = awaitServer(-1);

        Run warm = run("bin/etcdctl", Map.of("JAVA_OPTS", "-XX:+ThisOptionDoesNotExist"), "version");
        assertEquals(VERSION, warm.out, "served by the resident server, not a JVM of its own: " + warm);

        Run status = run("bin/etcdj-warm", Map.of(), "status");
        assertTrue(status.out.contains("server pid " + server), status.toString());
        assertTrue(status.out.contains(copy.resolve("etcdctl/target").toString()), status.toString());

        // A rebuilt dependency: the server must not serve this call, and a new one takes its place.
        Path jar;
        try (Stream<Path> libs = Files.list(copy.resolve("etcdctl/target/lib"))) {
            jar = libs.filter(p -> p.toString().endsWith(".jar")).findFirst().orElseThrow();
        }
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        Run after = run("bin/etcdctl", Map.of(), "version");
        assertEquals(VERSION, after.out, after.toString());
        awaitExit(server, "the outdated server did not exit");
        long successor = awaitServer(server);
        assertNotEquals(server, successor);

        Run stop = run("bin/etcdj-warm", Map.of(), "stop");
        assertEquals("stopped server pid " + successor + "\n", stop.out, stop.toString());
        awaitExit(successor, "etcdj-warm stop did not end the server");
        Run none = run("bin/etcdj-warm", Map.of(), "status");
        assertTrue(none.out.contains("no server running"), none.toString());
    }

    private static void awaitExit(long pid, String failure) throws Exception {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isPresent()) {
            try {
                p.get().onExit().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(failure + " (pid " + pid + ")");
            }
        }
    }

    /** The pid of the running server other than {@code not}, once it answers calls. */
    private long awaitServer(long not) throws Exception {
        return Eventually.get("a warm server in " + warmDir, Duration.ofSeconds(DEADLINE_SECONDS), Duration.ofMillis(200), () -> {
            Optional<Long> pid = pid();
            if (pid.isPresent() && pid.get() != not) {
                Run probe = run("bin/etcdctl", Map.of("JAVA_OPTS", "-XX:+ThisOptionDoesNotExist"), "version");
                if (probe.code == 0) {
                    return pid.get();
                }
            }
            return null;
        });
    }

    private Optional<Long> pid() throws IOException {
        if (!Files.isDirectory(warmDir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(warmDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".pid")).toList()) {
                try {
                    return Optional.of(Long.parseLong(Files.readString(f).trim()));
                } catch (IOException | NumberFormatException e) {
                    // written or removed just now
                }
            }
        }
        return Optional.empty();
    }

    private Run run(String tool, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(copy.resolve(tool).toString()));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).dir(temp)
                .withoutEnvIf(k -> k.startsWith("ETCDCTL") || k.startsWith("ETCDJ") || k.equals("JAVA_OPTS"))
                .env("ETCDJ_WARM_DIR", warmDir.toString()).env(env).timeout(Duration.ofSeconds(DEADLINE_SECONDS)).run();
        return new Run(r.stdout(), r.stderr(), r.exitCode());
    }

    private record Run(String out, String err, int code) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                String name = f.toString();
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(f) && !name.contains("/classes/") && !name.contains("-reports/")
                        && !name.contains("/warm-it/") && !name.endsWith("/warm-client")) {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
