package io.etcdj.server.embed;

import java.io.IOException;
import java.util.Map;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.annotations.SaveError;

/**
 * {@code --memory-mlock}: locks every page the process has mapped, and every page it maps later,
 * in RAM ({@code mlockall(MCL_CURRENT | MCL_FUTURE)}), as etcd does before it opens its backend.
 * Through jnr-ffi, which the LMDB binding already brings.
 */
final class MemoryLock {
    private static final int MCL_CURRENT = 1;
    private static final int MCL_FUTURE = 2;
    /** Go's texts for the errors mlockall returns (syscall.Errno's strings). */
    private static final Map<Integer, String> GO_ERRNO = Map.of(
            1, "operation not permitted",
            11, "resource temporarily unavailable",
            12, "cannot allocate memory",
            22, "invalid argument");

    /** The C library function used. */
    public interface LibC {
        @SaveError
        int mlockall(int flags);
    }

    private MemoryLock() {
    }

    /** Locks the process's memory; the error is the system's, worded as Go words it. */
    static void lockAll() throws IOException {
        LibC libc;
        try {
            libc = LibraryLoader.create(LibC.class).load("c");
        } catch (LinkageError | RuntimeException e) {
            throw new IOException("mlockall is not available on this system: " + e.getMessage(), e);
        }
        if (libc.mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
            int errno = LastError.getLastError(jnr.ffi.Runtime.getRuntime(libc));
            throw new IOException(GO_ERRNO.getOrDefault(errno, "errno " + errno));
        }
    }
}
