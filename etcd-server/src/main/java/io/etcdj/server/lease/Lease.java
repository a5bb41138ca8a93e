package io.etcdj.server.lease;

import com.google.protobuf.ByteString;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** One lease: its granted TTL, its expiry (on the lessor's clock) and the keys attached to it. */
public final class Lease {
    private static final Comparator<ByteString> KEY_ORDER = ByteString.unsignedLexicographicalComparator();

    private final long id;
    private final long ttlSeconds;
    private final TreeSet<ByteString> keys = new TreeSet<>(KEY_ORDER);
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

    long expiresAtNanos() {
        return expiresAtNanos;
    }

    void refresh(long nowNanos, long extendNanos) {
        expiresAtNanos = nowNanos + extendNanos + ttlSeconds * 1_000_000_000L;
    }

    void forever() {
        expiresAtNanos = Long.MAX_VALUE;
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
