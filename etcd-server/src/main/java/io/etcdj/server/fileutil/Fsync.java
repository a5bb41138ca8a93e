package io.etcdj.server.fileutil;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The fsyncs a restart relies on. A file's data is durable only after an fsync of the file; its
 * name (a create, a rename, an unlink) only after an fsync of the directory that holds it. A
 * power cut keeps neither otherwise, whatever order the writes were made in.
 */
public final class Fsync {
    private Fsync() {
    }

    /** Makes the contents of {@code file} durable (fsync). */
    public static void file(Path file) throws IOException {
        force(file);
    }

    /**
     * Makes the entries of {@code dir} durable: a file created, renamed into or removed from it.
     * Opening a directory for reading and forcing it is how the JDK reaches fsync(dirfd) on POSIX.
     */
    public static void dir(Path dir) throws IOException {
        force(dir);
    }

    /**
     * fsync through a channel, with the thread's interrupt status set aside meanwhile: a channel
     * would otherwise refuse (and close) on an interrupted thread, and a member stopping on an
     * interrupt still needs its last fsyncs.
     */
    private static void force(Path path) throws IOException {
        boolean interrupted = Thread.interrupted();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Renames {@code source} over {@code target} so that after a power cut the target holds either
     * its old contents or all of the source's: the source is synced before the rename, and the
     * directory after it.
     */
    public static void replace(Path source, Path target) throws IOException {
        file(source);
        Files.move(source, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        dir(target.toAbsolutePath().getParent());
    }

    /**
     * Creates {@code dir} and any missing parents, each made durable in its parent: a directory a
     * restart relies on must not vanish with a power cut while files in it were synced.
     */
    public static void createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        Files.createDirectories(absolute);
        if (parent != null) {
            dir(parent);
        }
    }

    /** Removes {@code file} if it exists, and makes the removal durable. */
    public static void delete(Path file) throws IOException {
        if (Files.deleteIfExists(file)) {
            dir(file.toAbsolutePath().getParent());
        }
    }
}
