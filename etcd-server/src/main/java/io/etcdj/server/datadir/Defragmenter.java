package io.etcdj.server.datadir;

import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import java.nio.file.Path;

/** Compacts a stopped member's backend file in place ({@code etcdutl defrag}). */
public final class Defragmenter {
    /** Sizes of the backend file before and after, for the caller to report. */
    public record Result(Path file, long sizeBefore, long sizeAfter, long sizeInUseBefore) {
    }

    private Defragmenter() {
    }

    public static Result defragment(Path dataDir) throws DataDirException {
        Path db = DataDirLayout.of(dataDir).backendFile();
        try (Backend backend = Backends.open(db)) {
            long before = backend.size();
            long inUse = backend.sizeInUse();
            backend.defragment();
            backend.sync();
            return new Result(db, before, backend.size(), inUse);
        } catch (BackendException e) {
            throw new DataDirException(e.getMessage(), e);
        }
    }
}
