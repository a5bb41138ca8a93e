package io.etcdj.robustness;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads a whole backend file with a tool that is not the server's own: LMDB files (ours) with
 * lmdb-utils' mdb_stat and mdb_dump -a (every page of every database), bbolt files (the real etcd's,
 * and etcd-format snapshots) with etcdctl snapshot status (every bucket, hashed). The format is
 * told by the meta page's magic number.
 */
final class BackendWalk {
    private static final int LMDB_MAGIC = 0xBEEFC0DE;
    private static final int BBOLT_MAGIC = 0xED0CDAED;

    private BackendWalk() {
    }

    /** Null when the file reads whole, else what the tool said. */
    static String problem(Path file) throws IOException, InterruptedException {
        if (!Files.isRegularFile(file)) {
            return file.getFileName() + " is missing";
        }
        int magic = magic(file);
        if (magic == LMDB_MAGIC) {
            String stat = run(List.of("mdb_stat", "-n", "-a", file.toString()));
            return stat != null ? "mdb_stat: " + stat : prefixed("mdb_dump", run(List.of("bash", "-c",
                    "mdb_dump -n -a '" + file + "' >/dev/null")));
        }
        if (magic == BBOLT_MAGIC) {
            return prefixed("etcdctl snapshot status", run(List.of("etcdctl", "snapshot", "status", file.toString())));
        }
        return String.format("%s has no LMDB or bbolt meta page (magic %08x)", file.getFileName(), magic);
    }

    private static String prefixed(String tool, String problem) {
        return problem == null ? null : tool + ": " + problem;
    }

    private static int magic(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            if (f.length() < 20) {
                return 0;
            }
            f.seek(16);
            return Integer.reverseBytes(f.readInt());
        }
    }

    /** Null when the command succeeds, else its exit code and output's last line. */
    private static String run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("ETCDCTL_API", "3");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "did not finish within 120 s";
        }
        if (p.exitValue() == 0) {
            return null;
        }
        String[] lines = out.split("\n");
        return "exit " + p.exitValue() + ": " + lines[lines.length - 1];
    }
}
