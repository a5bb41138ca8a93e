package io.etcdj.server.etcdserver;

import io.etcdj.cli.GoDuration;
import io.etcdj.format.GoBytes;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.log.Log;
import io.etcdj.server.metrics.Metrics;

/**
 * --bootstrap-defrag-threshold-megabytes (etcd 3.5's --experimental-...): at start-up, before the
 * WAL is replayed, the backend is defragmented when that frees at least the threshold (its size
 * less its size in use), as etcd's bootstrap does; 0, the default, never.
 */
final class BootstrapDefrag {
    private BootstrapDefrag() {
    }

    /** Whether a backend of {@code size} bytes with {@code inUse} in use is defragmented for {@code thresholdMegabytes}. */
    static boolean wanted(long size, long inUse, long thresholdMegabytes) {
        return thresholdMegabytes != 0 && size - inUse >= thresholdMegabytes * 1024 * 1024;
    }

    static void maybeDefragment(Backend backend, long thresholdMegabytes, Metrics metrics, Log log) {
        if (thresholdMegabytes == 0) {
            return;
        }
        long size = backend.size();
        long inUse = backend.sizeInUse();
        long threshold = thresholdMegabytes * 1024 * 1024;
        if (!wanted(size, inUse, thresholdMegabytes)) {
            log.info("Skipping defragmentation", "current-db-size-bytes", size, "current-db-size", GoBytes.format(size),
                    "current-db-size-in-use-bytes", inUse, "current-db-size-in-use", GoBytes.format(inUse),
                    "experimental-bootstrap-defrag-threshold-bytes", threshold,
                    "experimental-bootstrap-defrag-threshold", GoBytes.format(threshold));
            return;
        }
        long start = System.nanoTime();
        log.info("defragmenting", "path", backend.file().toString(), "current-db-size-bytes", size,
                "current-db-size", GoBytes.format(size), "current-db-size-in-use-bytes", inUse,
                "current-db-size-in-use", GoBytes.format(inUse));
        backend.defragment();
        backend.sync();
        long after = backend.size();
        long inUseAfter = backend.sizeInUse();
        metrics.backendDefrag.since(start);
        log.info("finished defragmenting directory", "path", backend.file().toString(),
                "current-db-size-bytes-diff", after - size, "current-db-size-bytes", after, "current-db-size", GoBytes.format(after),
                "current-db-size-in-use-bytes-diff", inUseAfter - inUse, "current-db-size-in-use-bytes", inUseAfter,
                "current-db-size-in-use", GoBytes.format(inUseAfter),
                "took", GoDuration.format(System.nanoTime() - start));
    }
}
