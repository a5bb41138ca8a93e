package io.etcdj.server.lease;

import com.google.protobuf.ByteString;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.error.EtcdError;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Grants, renews and expires leases. Granting, revoking and attaching keys happen in Raft order
 * (called by the apply loop); renewals and expiry are the leader's alone: only a primary lessor
 * keeps real expiry times, and a member that becomes leader extends every lease by a full TTL
 * (the seed's failure guide: "the new leader extends the timeouts").
 *
 * <p>Time comes from an injected nanosecond clock so tests control it.
 */
public final class Lessor {
    /** etcd's MaxLeaseTTL: about 285 years. */
    public static final long MAX_TTL_SECONDS = 9_000_000_000L;

    private final ConcurrentHashMap<Long, Lease> leases = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final long minTtlSeconds;
    private volatile boolean primary;

    public Lessor(LongSupplier nanoClock, long minTtlSeconds) {
        this.clock = nanoClock;
        this.minTtlSeconds = minTtlSeconds;
    }

    /** etcd's minimum TTL: the time to elect a new leader, 1.5 election timeouts, in whole seconds. */
    public static long minTtlSeconds(long heartbeatMillis, long electionTicks) {
        long millis = (3 * electionTicks / 2) * heartbeatMillis;
        return Math.max(1, (millis + 999) / 1000);
    }

    /** Reloads leases from the backend; keys are re-attached by the caller from the key index. */
    public void restore(ReadTx tx) {
        leases.clear();
        tx.forEach(Bucket.LEASE, null, null, (k, v) -> {
            ByteBuffer b = ByteBuffer.wrap(v);
            long id = b.getLong();
            leases.put(id, new Lease(id, b.getLong()));
            return true;
        });
    }

    public long minTtlSeconds() {
        return minTtlSeconds;
    }

    /** Applies a grant. The ID was chosen before proposing, so every member grants the same one. */
    public Lease grant(WriteTx tx, long id, long ttlSeconds) {
        if (leases.containsKey(id)) {
            throw EtcdError.LEASE_EXIST.exception();
        }
        Lease lease = new Lease(id, Math.max(ttlSeconds, minTtlSeconds));
        if (primary) {
            lease.refresh(clock.getAsLong(), 0);
        }
        tx.put(Bucket.LEASE, Bytes.longBytes(id),
                ByteBuffer.allocate(16).putLong(id).putLong(lease.ttlSeconds()).array());
        leases.put(id, lease);
        io.etcdj.server.metrics.Metrics.leaseGranted(lease.ttlSeconds());
        return lease;
    }

    /** Applies a revoke's bookkeeping; the caller deletes the returned lease's keys in the same entry. */
    public Lease revoke(WriteTx tx, long id) {
        Lease lease = leases.remove(id);
        if (lease == null) {
            throw EtcdError.LEASE_NOT_FOUND.exception();
        }
        tx.delete(Bucket.LEASE, Bytes.longBytes(id));
        io.etcdj.server.metrics.Metrics.LEASE_REVOKED.inc();
        return lease;
    }

    public Lease lookup(long id) {
        return leases.get(id);
    }

    public boolean exists(long id) {
        return leases.containsKey(id);
    }

    public void attach(long id, ByteString key) {
        Lease lease = leases.get(id);
        if (lease != null) {
            lease.attach(key);
        }
    }

    public void detach(long id, ByteString key) {
        Lease lease = leases.get(id);
        if (lease != null) {
            lease.detach(key);
        }
    }

    /** Renews a lease on the leader; returns its TTL. Expired or unknown leases are not found. */
    public long renew(long id) {
        Lease lease = leases.get(id);
        if (lease == null || (primary && lease.expiresAtNanos() <= clock.getAsLong())) {
            throw EtcdError.LEASE_NOT_FOUND.exception();
        }
        if (primary) {
            lease.refresh(clock.getAsLong(), 0);
            io.etcdj.server.metrics.Metrics.LEASE_RENEWED.inc();
        }
        return lease.ttlSeconds();
    }

    /** Seconds left before expiry as etcd reports them (whole seconds, rounded down). */
    public long remainingSeconds(Lease lease) {
        long exp = lease.expiresAtNanos();
        if (exp == Long.MAX_VALUE) {
            return lease.ttlSeconds();
        }
        long left = exp - clock.getAsLong();
        return Math.max(0, left / 1_000_000_000L);
    }

    public List<Lease> leases() {
        return new ArrayList<>(leases.values());
    }

    /** Leases past their expiry, for the leader to propose revokes (at most {@code max}). */
    public List<Long> expired(int max) {
        if (!primary) {
            return List.of();
        }
        long now = clock.getAsLong();
        List<Long> out = new ArrayList<>();
        for (Lease l : leases.values()) {
            if (l.expiresAtNanos() <= now) {
                out.add(l.id());
                if (out.size() >= max) {
                    break;
                }
            }
        }
        return out;
    }

    /** This member became leader: every lease gets a full TTL from now (plus {@code extendNanos}). */
    public void promote(long extendNanos) {
        primary = true;
        long now = clock.getAsLong();
        for (Lease l : leases.values()) {
            l.refresh(now, extendNanos);
        }
    }

    /** This member lost leadership: leases stop expiring here. */
    public void demote() {
        primary = false;
        for (Lease l : leases.values()) {
            l.forever();
        }
    }

    public boolean isPrimary() {
        return primary;
    }
}
