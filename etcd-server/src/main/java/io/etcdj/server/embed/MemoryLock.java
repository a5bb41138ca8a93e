package io.etcdj.server.embed;

import io.etcdj.server.osutil.LibC;
import java.io.IOException;
import java.util.Map;

/**
 * {@code --memory-mlock}: locks every page the process has mapped, and every page it maps later,
 * in RAM ({@code mlockall(MCL_CURRENT | MCL_FUTURE)}), as etcd does before it opens its backend.
 * Through {@link LibC}.
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

    private MemoryLock() {
    }

    /** Locks the process's memory; the error is the system's, worded as Go words it. */
    static void lockAll() throws IOException {
        int errno;
        try {
            errno = LibC.mlockall(MCL_CURRENT | MCL_FUTURE);
        } catch (LinkageError | RuntimeException e) {
            throw new IOException("mlockall is not available on this system: " + e.getMessage(), e);
        }
        if (errno != 0) {
            throw new IOException(GO_ERRNO.getOrDefault(errno, "errno " + errno));
        }
    }
}
