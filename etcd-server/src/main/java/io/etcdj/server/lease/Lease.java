package io.etcdj.server.lease;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * One lease: its granted TTL, the remaining TTL of its last checkpoint (0: none, the full TTL
 * applies), its expiry (on the lessor's clock) and the keys attached to it.
 */
public final class Lease {
    private static final Comparator<ByteString> KEY_ORDER = ByteString.unsignedLexicographicalComparator();

    private final long id;
    private final long ttlSeconds;
    private final TreeSet<ByteString> keys = new TreeSet<>(KEY_ORDER);
    /** Seconds left at the last applied checkpoint; 0 when unset (etcd's remainingTTL). */
    private volatile long remainingTtlSeconds;
    /** Expiry in the lessor clock's nanoseconds; Long.MAX_VALUE while this member is not the leader. */
    private volatile long expiresAtNanos = Long.MAX_VALUE;

    Lease(long id, long ttlSeconds) {
        this.id = id;
        this.ttlSeconds = ttlSeconds;
    }

    public long id() {
        return id;
    }

    public long ttlSeconds() {
        return ttlSeconds;
    }

    /** The remaining TTL of the last checkpoint, 0 when none is set. */
    public long checkpointedTtlSeconds() {
        return remainingTtlSeconds;
    }

    void checkpointed(long seconds) {
        remainingTtlSeconds = seconds;
    }

    /** What a new expiry counts from: the checkpointed remaining TTL if set, else the full TTL. */
    long effectiveTtlSeconds() {
        long r = remainingTtlSeconds;
        return r > 0 ? r : ttlSeconds;
    }

    long expiresAtNanos() {
        return expiresAtNanos;
    }

    void refresh(long nowNanos, long extendNanos) {
        expiresAtNanos = nowNanos + extendNanos + effectiveTtlSeconds() * 1_000_000_000L;
    }

    void forever() {
        expiresAtNanos = Long.MAX_VALUE;
    }

    /**
     * The lease bucket's record: ID and TTL (16 bytes), followed by the checkpointed remaining TTL
     * when one is set (24 bytes).
     */
    public static byte[] record(long id, long ttlSeconds, long remainingTtlSeconds) {
        ByteBuffer b = ByteBuffer.allocate(remainingTtlSeconds > 0 ? 24 : 16).putLong(id).putLong(ttlSeconds);
        if (remainingTtlSeconds > 0) {
            b.putLong(remainingTtlSeconds);
        }
        return b.array();
    }

    /** Reads {@link #record}: ID, TTL and remaining TTL (0 when the record has none). */
    public static long[] parseRecord(byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        return new long[] {b.getLong(), b.getLong(), v.length >= 24 ? b.getLong() : 0};
    }

    synchronized void attach(ByteString key) {
        keys.add(key);
    }

    synchronized void detach(ByteString key) {
        keys.remove(key);
    }

    /** Attached keys in key order (the order every member deletes them in on revoke). */
    public synchronized List<ByteString> keys() {
        return List.copyOf(keys);
    }
}
