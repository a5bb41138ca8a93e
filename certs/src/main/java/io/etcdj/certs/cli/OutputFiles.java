package io.etcdj.certs.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Guards against silently replacing keys: existing outputs need --force. */
final class OutputFiles {
    private OutputFiles() {
    }

    static void refuseOverwrite(List<Path> files, boolean force) {
        if (force) {
            return;
        }
        for (Path file : files) {
            if (Files.exists(file)) {
                throw new IllegalArgumentException(file + ": already exists (use --force to replace it)");
            }
        }
    }
}
