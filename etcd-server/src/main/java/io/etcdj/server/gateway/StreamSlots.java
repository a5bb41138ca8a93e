package io.etcdj.server.gateway;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The gateway's share of --max-concurrent-streams. etcd's gateway is a gRPC client of its member
 * over one HTTP/2 connection per listener, so its calls count against the member's stream limit
 * like any client's: when every stream is taken, grpc-go's client waits for one to be freed, and
 * the HTTP request waits with it (until its client gives up). The gateway here calls in-process,
 * where there are no HTTP/2 streams, so it keeps the count itself: a call starts when a slot is
 * free, else it waits in line, first come first served.
 */
final class StreamSlots {
    private final long max;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private long inUse;

    /** {@code max}: the member's --max-concurrent-streams. */
    StreamSlots(long max) {
        this.max = Math.max(1, max);
    }

    /** Runs {@code start} now if a slot is free (taking it), else when one is handed over. */
    void acquire(Runnable start) {
        synchronized (this) {
            if (inUse >= max) {
                waiting.addLast(start);
                return;
            }
            inUse++;
        }
        start.run();
    }

    /** Forgets a {@code start} still waiting (its client left); false when it had a slot already. */
    synchronized boolean abandon(Runnable start) {
        return waiting.remove(start);
    }

    /** Frees a slot taken by {@link #acquire}: the next call waiting gets it. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                inUse--;
                return;
            }
        }
        next.run();
    }

    /** Calls holding a slot; for tests. */
    synchronized long inUse() {
        return inUse;
    }
}
