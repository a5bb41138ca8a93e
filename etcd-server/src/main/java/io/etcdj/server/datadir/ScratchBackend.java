package io.etcdj.server.datadir;

import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A private copy of a backend file, opened in a temporary directory and deleted on close.
 * Reading tools work on a copy because opening an LMDB file writes a lock file beside it and may
 * create missing buckets: the user's snapshot or member files must stay untouched.
 */
final class ScratchBackend implements AutoCloseable {
    private final Path dir;
    private final Backend backend;
    private final long dbSize;

    private ScratchBackend(Path dir, Backend backend, long dbSize) {
        this.dir = dir;
        this.backend = backend;
        this.dbSize = dbSize;
    }

    /**
     * Copies the backend part of {@code source} (trailer dropped, not checked) and opens it; a
     * bbolt file (etcd's format, which our member's snapshots are too) is converted on the way.
     */
    static ScratchBackend copyOf(SnapshotFile source) throws DataDirException {
        Path dir;
        try {
            dir = Files.createTempDirectory("etcdutl-");
        } catch (IOException e) {
            throw new DataDirException("cannot create a temporary directory: " + e.getMessage(), e);
        }
        try {
            Path db = dir.resolve("db");
            if (source.isBbolt()) {
                EtcdImport.convert(source, db);
            } else {
                source.copyDbTo(db, true);
            }
            return new ScratchBackend(dir, Backends.open(db, source.path()), source.dbSize());
        } catch (DataDirException | RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
    }

    Backend backend() {
        return backend;
    }

    /** Size of the backend file as it was copied (before this process opened it). */
    long dbSize() {
        return dbSize;
    }

    @Override
    public void close() {
        try {
            backend.close();
        } catch (BackendException ignored) {
            // the copy is thrown away anyway
        } finally {
            deleteTree(dir);
        }
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temporary directory left behind is harmless
        }
    }
}
