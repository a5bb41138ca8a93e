package io.etcdj.server.wait;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The proposals this member has made and not yet answered, bounded in number and in bytes. Each
 * one is held in memory until it is answered (the request in the Raft inbox, then in the Raft
 * log and the apply queue, its caller in {@link Waiters}), so a bound on them bounds what clients
 * can make the member hold however fast they write. A proposal that does not fit is refused
 * before it is queued anywhere; the server answers it with etcd's "too many requests".
 */
public final class ProposalBudget {
    private final long maxCount;
    private final long maxBytes;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    public ProposalBudget(long maxCount, long maxBytes) {
        if (maxCount <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("a proposal budget needs room: " + maxCount + " proposals, " + maxBytes + " bytes");
        }
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
    }

    /**
     * Takes room for one proposal of {@code size} bytes; false (and nothing taken) when that
     * would pass either bound. A proposal larger than the whole byte budget still fits when
     * nothing else is held, so no request that passes the request size check is refused forever.
     */
    public boolean tryAcquire(long size) {
        if (count.incrementAndGet() > maxCount) {
            count.decrementAndGet();
            return false;
        }
        long held = bytes.addAndGet(size);
        if (held > maxBytes && held != size) {
            bytes.addAndGet(-size);
            count.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Gives back what {@link #tryAcquire} took for a proposal of {@code size} bytes, once it is answered. */
    public void release(long size) {
        bytes.addAndGet(-size);
        count.decrementAndGet();
    }

    /** Proposals held now. */
    public long count() {
        return count.get();
    }

    /** Bytes of the proposals held now. */
    public long bytes() {
        return bytes.get();
    }
}
