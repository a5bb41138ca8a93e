package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        Process p = new ProcessBuilder(moved.resolve("bin/etcdctl").toString(), "version").start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), err);
        assertEquals("etcdctl version: 3.4.23\nAPI version: 3.4\n", out);
        assertEquals("", err, "a stale archive is skipped silently");
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
