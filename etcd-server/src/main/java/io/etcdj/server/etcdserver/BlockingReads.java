package io.etcdj.server.etcdserver;

import io.etcdj.server.error.EtcdError;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Reads that could not open their view of the store without waiting (the apply loop's write
 * batch holds the index, a defragment or snapshot install holds the backend): they wait here, on
 * threads of their own, so that the event loop they arrived on keeps serving its other
 * connections, watches and pings. At most {@value #MAX_WAITING} wait; a read beyond that is
 * refused with etcd's "too many requests" instead of growing the queue without bound.
 */
final class BlockingReads implements AutoCloseable {
    static final int THREADS = 4;
    static final int MAX_WAITING = 10_000;

    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(MAX_WAITING), r -> {
                Thread t = new Thread(r, "blocking-read");
                t.setDaemon(true);
                return t;
            });

    /** Runs {@code read} on this pool; fails with "too many requests" when the queue is full. */
    <T> CompletableFuture<T> submit(Supplier<T> read) {
        try {
            return CompletableFuture.supplyAsync(read, pool);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(pool.isShutdown()
                    ? EtcdError.STOPPED.exception() : EtcdError.TOO_MANY_REQUESTS.exception());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
