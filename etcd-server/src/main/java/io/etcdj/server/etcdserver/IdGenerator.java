package io.etcdj.server.etcdserver;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Unique IDs for requests and leases, made as etcd makes them: the low 16 bits of the member ID,
 * then 40 bits of start-up milliseconds and an 8-bit counter that carries into them. Unique
 * across members and restarts without coordination.
 */
public final class IdGenerator {
    private static final long SUFFIX_MASK = (1L << 48) - 1;
    private final long prefix;
    private final AtomicLong suffix;

    public IdGenerator(long memberId, long nowMillis) {
        this.prefix = (memberId & 0xffff) << 48;
        this.suffix = new AtomicLong((nowMillis & ((1L << 40) - 1)) << 8);
    }

    public long next() {
        return prefix | (suffix.incrementAndGet() & SUFFIX_MASK);
    }

    /** A new lease ID: the next ID made positive, never 0 (etcd's lease IDs are positive int64s). */
    public long nextLeaseId() {
        long id;
        do {
            id = next() & Long.MAX_VALUE;
        } while (id == 0);
        return id;
    }
}
