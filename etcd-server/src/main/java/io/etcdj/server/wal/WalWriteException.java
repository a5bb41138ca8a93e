package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writing or syncing a WAL file failed, for example because the disk is full: "wal: write
 * FILE: no space left on device", the file and the system's reason as Go's path errors name
 * them. The WAL refuses further writes after it; nothing the caller was told is durable is lost.
 */
public final class WalWriteException extends WalException {
    private static final long serialVersionUID = 1L;

    WalWriteException(Path file, IOException cause) {
        super("wal: write " + file + ": " + reason(cause), cause);
    }

    /** The JDK's text for a failed write is the system's (strerror), which Go prints in lower case. */
    private static String reason(IOException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.toLowerCase(Locale.ROOT);
    }

    /** {@code e} as a write failure of {@code file}, unless it already names its file. */
    static IOException of(Path file, IOException e) {
        return e instanceof WalException ? e : new WalWriteException(file, e);
    }
}
