package io.etcdj.raft.tracker;

/**
 * A bounded FIFO window of the last indexes of append messages sent but not yet acknowledged.
 * Ring buffer of fixed capacity; the leader stops streaming to a follower while it is full.
 */
public final class Inflights {
    private final long[] buffer;
    private int start;
    private int count;

    public Inflights(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("inflight capacity must be positive");
        }
        this.buffer = new long[capacity];
    }

    public boolean full() {
        return count == buffer.length;
    }

    public int count() {
        return count;
    }

    /** Records an append whose last entry is {@code index}; indexes must grow. */
    public void add(long index) {
        if (full()) {
            throw new IllegalStateException("cannot add into a full inflights window");
        }
        buffer[(start + count) % buffer.length] = index;
        count++;
    }

    /** Frees every in-flight append up to and including {@code index} (acknowledged). */
    public void freeLE(long index) {
        while (count > 0 && buffer[start] <= index) {
            start = (start + 1) % buffer.length;
            count--;
        }
        if (count == 0) {
            start = 0;
        }
    }

    /** Frees the oldest append, so a heartbeat answer can unblock a window whose acks were lost. */
    public void freeFirstOne() {
        if (count > 0) {
            freeLE(buffer[start]);
        }
    }

    public void reset() {
        start = 0;
        count = 0;
    }
}
