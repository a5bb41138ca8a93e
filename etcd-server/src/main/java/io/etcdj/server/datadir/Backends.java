package io.etcdj.server.datadir;

import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens an existing backend file for offline work, with a map large enough for the whole file. */
final class Backends {
    /** The server's default --quota-backend-bytes. */
    private static final long DEFAULT_QUOTA = 2L << 30;

    private Backends() {
    }

    static Backend open(Path db) throws DataDirException {
        return open(db, db);
    }

    /** Creates a new backend file at {@code db} for about {@code expectedBytes} of data (an import). */
    static Backend create(Path db, long expectedBytes) throws DataDirException {
        try {
            return Backend.open(db, Math.max(DEFAULT_QUOTA, 3 * expectedBytes));
        } catch (BackendException e) {
            throw new DataDirException("cannot create database at " + db + " (" + e.getMessage() + ")", e);
        }
    }

    /** Opens {@code db}; errors name {@code shownAs}, the file the user gave (a scratch copy is opened instead). */
    static Backend open(Path db, Path shownAs) throws DataDirException {
        if (!Files.isRegularFile(db)) {
            throw new DataDirException("open " + db + ": no such file or directory");
        }
        try {
            return Backend.open(db, Math.max(DEFAULT_QUOTA, 2 * Files.size(db)));
        } catch (IOException e) {
            throw IoErrors.describe("open", db, e);
        } catch (BackendException e) {
            String reason = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
            throw new DataDirException("cannot open database at " + shownAs + " (" + reason + ")", e);
        }
    }
}
