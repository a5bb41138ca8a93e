package io.etcdj.server.backend;

import java.util.function.LongSupplier;

/**
 * The backend file's sizes as of a recent write commit, so that the quota check and the map's
 * room check on every write's path need no system call and no read transaction. The cache is
 * refreshed after a write commit once any of these has passed since the last refresh: this much
 * estimated growth, this many commits, this much time. etcd's own quota check reads a size as of
 * its last batch commit, up to 100 ms old.
 *
 * <p>Threading: {@link #committed} and {@link #reserve} run on the writer's thread (one write
 * transaction at a time); the cached figures are read from any thread.
 */
final class BackendSizes {
    static final long REFRESH_GROWTH = 1L << 20;
    static final int REFRESH_COMMITS = 32;
    static final long REFRESH_NANOS = 50_000_000L;

    private final LongSupplier extentReader;
    private final LongSupplier inUseReader;
    private final LongSupplier sizeReader;
    /** The file's size, its pages up to the last one written and the pages holding data, as of the last refresh. */
    private volatile long size;
    private volatile long extent;
    private volatile long inUse;
    /** Writer-side only: what happened since that refresh. */
    private long growthSinceRefresh;
    private int commitsSinceRefresh;
    private long refreshedAtNanos;

    /** The exact figures, each read when the cache is refreshed. */
    BackendSizes(LongSupplier extent, LongSupplier inUse, LongSupplier size) {
        this.extentReader = extent;
        this.inUseReader = inUse;
        this.sizeReader = size;
    }

    void refresh() {
        extent = extentReader.getAsLong();
        inUse = inUseReader.getAsLong();
        size = sizeReader.getAsLong();
        growthSinceRefresh = 0;
        commitsSinceRefresh = 0;
        refreshedAtNanos = System.nanoTime();
    }

    /** After each write commit: refreshes the cache now and then. */
    void committed() {
        if (growthSinceRefresh >= REFRESH_GROWTH || ++commitsSinceRefresh >= REFRESH_COMMITS
                || System.nanoTime() - refreshedAtNanos >= REFRESH_NANOS) {
            refresh();
        }
    }

    /**
     * Counts a write's worst-case {@code growth} and returns a bound on the file's extent once it
     * is written: the cached extent plus every write's worst case since it was taken. Only when
     * that bound would pass {@code limit} is the exact figure read first.
     */
    long reserve(long growth, long limit) {
        if (extent + growthSinceRefresh + growth > limit) {
            refresh();
        }
        growthSinceRefresh += growth;
        return extent + growthSinceRefresh;
    }

    long size() {
        return size;
    }

    long inUse() {
        return inUse;
    }
}
