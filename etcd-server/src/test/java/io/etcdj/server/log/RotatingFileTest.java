package io.etcdj.server.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rotated log file: size limit, lumberjack's backup names, backups kept, gzip. */
class RotatingFileTest {
    @TempDir
    Path dir;

    private List<String> names() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void rotatesPastMaxSizeKeepsMaxBackupsAndCompressesThem() throws Exception {
        Path log = dir.resolve("etcd.log");
        byte[] line = ("x".repeat(1023) + "\n").getBytes();
        try (RotatingFile f = new RotatingFile(log, new Rotation(1, 0, 2, false, true))) {
            for (int i = 0; i < 4 * 1024 + 10; i++) {
                f.write(line, 0, line.length);
            }
        }
        List<String> names = names();
        assertEquals(3, names.size(), names.toString());
        assertTrue(names.contains("etcd.log"), names.toString());
        assertEquals(2, names.stream().filter(n -> n.matches("etcd-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}\\.log\\.gz")).count(),
                names.toString());
        assertTrue(Files.size(log) <= 1024 * 1024, "the current file stays under maxsize");
    }

    @Test
    void backupsAreNamedAsLumberjackNamesThem() throws Exception {
        try (RotatingFile f = new RotatingFile(dir.resolve("etcd.log"), new Rotation(1, 0, 0, false, false))) {
            assertEquals(dir.resolve("etcd-2024-03-05T06-07-08.009.log"),
                    f.backupName(Instant.parse("2024-03-05T06:07:08.009Z")));
        }
    }
}
