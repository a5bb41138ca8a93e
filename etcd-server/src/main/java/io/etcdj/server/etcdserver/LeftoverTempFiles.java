package io.etcdj.server.etcdserver;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The files a member writes aside before renaming or using them, which a crash (or a kill)
 * leaves behind: at start-up nothing uses them any more, and a large database's copies would
 * fill the disk start after start. Only these names are touched:
 * <ul>
 * <li>{@code <data-dir>/snapshot*.bbolt.tmp}: a Snapshot RPC's etcd-format copy being streamed;</li>
 * <li>{@code member/snap/outgoing*.snap.db}, {@code incoming*.snap.db}: a backend snapshot
 * being sent to or received from a peer (the leader sends it again);</li>
 * <li>{@code member/snap/db.defrag}: a defragment's copy;</li>
 * <li>{@code member/snap/db-durable.tmp}: the backend's durable-commit record being replaced.</li>
 * </ul>
 * WAL segments ({@code *.wal.tmp}) and Raft snapshot files ({@code *.snap.tmp}) are cleaned by
 * their own packages.
 */
final class LeftoverTempFiles {
    private LeftoverTempFiles() {
    }

    /** Removes the leftovers in {@code dataDir} and {@code snapDir}; returns what was removed. */
    static List<Path> remove(Path dataDir, Path snapDir) throws IOException {
        List<Path> removed = new ArrayList<>();
        removeMatching(dataDir, n -> n.startsWith("snapshot") && n.endsWith(".bbolt.tmp"), removed);
        removeMatching(snapDir, n -> (n.startsWith("outgoing") || n.startsWith("incoming")) && n.endsWith(".snap.db")
                || n.equals("db.defrag") || n.equals("db-durable.tmp"), removed);
        return removed;
    }

    private static void removeMatching(Path dir, Predicate<String> name, List<Path> removed) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (Files.isRegularFile(f) && name.test(f.getFileName().toString())) {
                    Files.delete(f);
                    removed.add(f);
                }
            }
        }
    }
}
