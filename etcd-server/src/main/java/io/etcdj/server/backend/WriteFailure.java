package io.etcdj.server.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Names what a failed write to the backend file ran into, as etcd's log names it ("write
 * member/snap/db: no space left on device"). LMDB reports a write the disk could take only part of
 * as EIO ("short write, filesystem full?" in its source), so an EIO while the file's file system
 * has less than {@link #FULL_BELOW} free is reported as the full disk it is.
 */
final class WriteFailure {
    /** Less free space than this after a short write: the disk was full. */
    static final long FULL_BELOW = 1 << 20;
    private static final int EIO = 5;
    private static final int ENOSPC = 28;

    private WriteFailure() {
    }

    /** "write FILE: REASON" for a failure of LMDB while it wrote {@code file}. */
    static String describe(Path file, RuntimeException e) {
        if (e instanceof LmdbError n) {
            int rc = n.resultCode();
            if (rc == ENOSPC || (rc == EIO && freeBytes(file) < FULL_BELOW)) {
                return "write " + file + ": no space left on device";
            }
        }
        return "write " + file + ": " + e.getMessage();
    }

    private static long freeBytes(Path file) {
        try {
            return Files.getFileStore(file).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }
}
