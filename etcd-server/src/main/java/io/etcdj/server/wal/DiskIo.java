package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every file-system operation the WAL and the snapshotter perform. It exists so that tests can put
 * a disk underneath that counts syncs and crashes at a chosen write; production uses {@link #real()}.
 */
public interface DiskIo {

    /** The platform file system (NIO {@code FileChannel}s). */
    static DiskIo real() {
        return NioDiskIo.INSTANCE;
    }

    /** Opens an existing file for reading only. */
    DiskFile openForRead(Path file) throws IOException;

    /** Opens an existing file for reading and writing, keeping its content. */
    DiskFile openForWrite(Path file) throws IOException;

    /** Creates {@code file}, or empties it if it exists, and opens it for reading and writing. */
    DiskFile createTruncated(Path file) throws IOException;

    /** Names of the entries of {@code dir}, in no particular order; empty if {@code dir} is missing. */
    List<String> list(Path dir) throws IOException;

    boolean exists(Path path);

    void createDirectories(Path dir) throws IOException;

    /** Atomically renames {@code from} to {@code to}, replacing {@code to} if it exists. */
    void rename(Path from, Path to) throws IOException;

    /** Deletes {@code file} if it exists. */
    void delete(Path file) throws IOException;

    /** Makes the entries of {@code dir} (creations, renames) durable. */
    void syncDirectory(Path dir) throws IOException;
}
