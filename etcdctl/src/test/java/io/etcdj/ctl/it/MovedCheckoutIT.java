package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkout moved after it was built: the class-data archive recorded the old paths and no longer
 * fits. Nothing of the JVM's may reach stdout, which scripts parse; the command still works.
 */
class MovedCheckoutIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void aStaleClassDataArchivePrintsNothingOnStdout(@TempDir Path moved) throws Exception {
        copy(ROOT.resolve("bin"), moved.resolve("bin"));
        copy(ROOT.resolve("etcdctl/target"), moved.resolve("etcdctl/target"));
        assertVersionRuns(moved, null);
    }

    /** The first call in the new place trains a fitting archive in the background; later calls map it. */
    @Test
    void aMovedCheckoutGetsAFittingArchiveAgain(@TempDir Path moved) throws Exception {
        copy(ROOT.resolve("bin"), moved.resolve("bin"));
        copy(ROOT.resolve("etcdctl/target"), moved.resolve("etcdctl/target"));
        assertVersionRuns(moved, null);
        Path stamp = moved.resolve("etcdctl/target/app.jsa.root");
        boolean trained = Eventually.reached(Duration.ofSeconds(120),
                () -> Files.readString(stamp).startsWith(moved.toAbsolutePath().normalize() + "\n")
                        && !Files.exists(moved.resolve("etcdctl/target/app.jsa.lock")));
        assertTrue(trained, "no archive trained for the new place: " + Files.readString(stamp));
        // -Xshare:on makes the JVM fail when the archive does not fit, instead of skipping it
        assertVersionRuns(moved, "-Xshare:on -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    }

    private static void assertVersionRuns(Path checkout, String javaOpts) throws Exception {
        Command c = Command.of(checkout.resolve("bin/etcdctl").toString(), "version");
        if (javaOpts != null) {
            c.env("JAVA_OPTS", javaOpts);
        }
        Command.Result r = c.run();
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("etcdctl version: 3.4.23\nAPI version: 3.4\n", r.stdout());
        assertEquals("", r.stderr(), "nothing of the JVM's about the archive");
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else if (Files.isRegularFile(f) // not the sockets of a warm server run by the tests
                        && !f.toString().contains("/classes/") && !f.toString().contains("-reports/")) {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
