package io.etcdj.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Creates and removes the temp dirs that hold data dirs and logs. */
public final class TempDirs {
    private TempDirs() {
    }

    /** A new directory under the system's temp dir. */
    public static Path create(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the tree; best effort, a leftover file must not hide the test's own failure. */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
