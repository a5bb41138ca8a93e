package io.etcdj.server.etcdserver;

import io.etcdj.server.metrics.Metrics;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The backend file that came with a leader's Raft snapshot, kept as {@code <index>.snap.db} in
 * the snap directory (etcd's name) from its arrival until the apply loop has installed it.
 */
final class SnapshotDb {
    private SnapshotDb() {
    }

    static Path path(Path snapDir, long index) {
        return snapDir.resolve(String.format("%016x.snap.db", index));
    }

    /** Syncs {@code received} and renames it to {@code target}, syncing the directory too. */
    static void makeDurable(Path received, Path target, Metrics metrics) throws IOException {
        long start = System.nanoTime();
        try (FileChannel ch = FileChannel.open(received, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        metrics.snapDbFsync.since(start);
        Files.move(received, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some file systems cannot sync a directory; the rename is still atomic.
        }
    }
}
