package io.etcdj.server.lease;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.LeaseCheckpoint;
import io.etcdj.api.etcdserverpb.LeaseCheckpointRequest;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.metrics.LeaseMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Grants, renews and expires leases. Granting, revoking and attaching keys happen in Raft order
 * (called by the apply loop); renewals and expiry are the leader's alone: only a primary lessor
 * keeps real expiry times, and a member that becomes leader extends every lease by a full TTL
 * (the seed's failure guide: "the new leader extends the timeouts").
 *
 * <p>With checkpoints on (etcd's LeaseCheckpoint), the leader records each long lease's remaining
 * TTL through Raft every checkpoint interval ({@link #dueCheckpoints}); every member applies it
 * ({@link #checkpoint}), and a member that becomes leader counts from that remaining TTL instead of
 * the full one. With persistence on, the remaining TTL is kept in the lease bucket and survives a
 * restart of the whole cluster. A renewal clears a set checkpoint (through {@link Checkpointer}).
 *
 * <p>Time comes from an injected nanosecond clock so tests control it.
 */
public final class Lessor {
    private final ConcurrentHashMap<Long, Lease> leases = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final LeaseMetrics metrics;
    private final long minTtlSeconds;
    private volatile boolean primary;
    /** Where the leader's checkpoints go (the server proposes them); null while checkpoints are off. */
    private volatile Checkpointer checkpointer;
    private volatile long checkpointIntervalNanos = DEFAULT_CHECKPOINT_INTERVAL_NANOS;
    private volatile BooleanSupplier persistCheckpoints = () -> false;
    /** Leases due for a checkpoint, earliest first; only the primary schedules any. Guarded by itself. */
    private final PriorityQueue<Scheduled> checkpointQueue = new PriorityQueue<>();

    /** etcd's defaultLeaseCheckpointInterval. */
    public static final long DEFAULT_CHECKPOINT_INTERVAL_NANOS = 5L * 60 * 1_000_000_000L;
    /** etcd's maxLeaseCheckpointBatchSize: checkpoints in one Raft entry. */
    public static final int MAX_CHECKPOINT_BATCH = 1000;
    /** etcd's leaseCheckpointRate: checkpoints proposed per second at most. */
    public static final int CHECKPOINT_RATE = 1000;

    /** Proposes a LeaseCheckpointRequest through Raft (etcd's Checkpointer); must not block. */
    @FunctionalInterface
    public interface Checkpointer {
        void propose(LeaseCheckpointRequest request);
    }

    private record Scheduled(long id, long atNanos) implements Comparable<Scheduled> {
        @Override
        public int compareTo(Scheduled o) {
            return Long.compare(atNanos, o.atNanos);
        }
    }

    public Lessor(LongSupplier nanoClock, long minTtlSeconds, LeaseMetrics metrics) {
        this.clock = nanoClock;
        this.metrics = metrics;
        this.minTtlSeconds = minTtlSeconds;
    }

    /** etcd's minimum TTL: the time to elect a new leader, 1.5 election timeouts, in whole seconds. */
    public static long minTtlSeconds(long heartbeatMillis, long electionTicks) {
        long millis = (3 * electionTicks / 2) * heartbeatMillis;
        return Math.max(1, (millis + 999) / 1000);
    }

    /**
     * Sets up checkpoints: with {@code cp} (null: this member makes none) the leader schedules one
     * per lease every {@code intervalNanos} and hands due ones to it; {@code persist} says whether
     * an applied checkpoint is written to the lease bucket (etcd: the LeaseCheckpointPersist gate,
     * or a cluster at version 3.6). Call before the member starts applying.
     */
    public void configureCheckpoints(Checkpointer cp, long intervalNanos, BooleanSupplier persist) {
        this.checkpointIntervalNanos = intervalNanos > 0 ? intervalNanos : DEFAULT_CHECKPOINT_INTERVAL_NANOS;
        this.persistCheckpoints = persist;
        this.checkpointer = cp;
    }

    /** Reloads leases from the backend; keys are re-attached by the caller from the key index. */
    public void restore(ReadTx tx) {
        leases.clear();
        synchronized (checkpointQueue) {
            checkpointQueue.clear();
        }
        tx.forEach(Bucket.LEASE, null, null, (k, v) -> {
            long[] rec = Lease.parseRecord(v);
            Lease l = new Lease(rec[0], Math.max(rec[1], minTtlSeconds));
            l.checkpointed(rec[2]);
            leases.put(rec[0], l);
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
        tx.put(Bucket.LEASE, Bytes.longBytes(id), Lease.record(id, lease.ttlSeconds(), 0));
        leases.put(id, lease);
        if (primary) {
            scheduleCheckpoint(lease);
        }
        metrics.granted(lease.ttlSeconds());
        return lease;
    }

    /** Applies a revoke's bookkeeping; the caller deletes the returned lease's keys in the same entry. */
    public Lease revoke(WriteTx tx, long id) {
        Lease lease = leases.remove(id);
        if (lease == null) {
            throw EtcdError.LEASE_NOT_FOUND.exception();
        }
        tx.delete(Bucket.LEASE, Bytes.longBytes(id));
        metrics.revoked();
        return lease;
    }

    /**
     * Applies a checkpoint: the lease's remaining TTL becomes {@code remainingSeconds} (0 clears
     * it), written to the lease bucket when checkpoints persist. Unknown leases are ignored, as
     * etcd ignores them. The expiry itself moves only when a member is promoted.
     */
    public void checkpoint(WriteTx tx, long id, long remainingSeconds) {
        Lease lease = leases.get(id);
        if (lease == null) {
            return;
        }
        lease.checkpointed(remainingSeconds);
        if (persistCheckpoints.getAsBoolean()) {
            tx.put(Bucket.LEASE, Bytes.longBytes(id), Lease.record(id, lease.ttlSeconds(), lease.checkpointedTtlSeconds()));
        }
        if (primary) {
            scheduleCheckpoint(lease);
        }
    }

    private void scheduleCheckpoint(Lease lease) {
        if (checkpointer == null || lease.effectiveTtlSeconds() <= checkpointIntervalNanos / 1_000_000_000L) {
            return;
        }
        synchronized (checkpointQueue) {
            checkpointQueue.add(new Scheduled(lease.id(), clock.getAsLong() + checkpointIntervalNanos));
        }
    }

    /**
     * The checkpoints due now, at most {@code max} (etcd's findDueScheduledCheckpoints): each
     * lease's remaining TTL in whole seconds rounded up, left out when the lease is gone, expired,
     * or still has its full TTL. Empty unless this lessor is primary with checkpoints on.
     */
    public List<LeaseCheckpoint> dueCheckpoints(int max) {
        List<LeaseCheckpoint> out = new ArrayList<>();
        if (!primary || checkpointer == null) {
            return out;
        }
        long now = clock.getAsLong();
        synchronized (checkpointQueue) {
            while (!checkpointQueue.isEmpty() && out.size() < max) {
                Scheduled s = checkpointQueue.peek();
                if (s.atNanos() > now) {
                    break;
                }
                checkpointQueue.poll();
                Lease l = leases.get(s.id());
                if (l == null || l.expiresAtNanos() <= now) {
                    continue;
                }
                long left = l.expiresAtNanos() - now;
                long remaining = (left + 999_999_999L) / 1_000_000_000L;
                if (remaining >= l.ttlSeconds()) {
                    continue;
                }
                out.add(LeaseCheckpoint.newBuilder().setID(s.id()).setRemainingTTL(remaining).build());
            }
        }
        return out;
    }

    /**
     * Hands every due checkpoint to the checkpointer in entries of at most
     * {@link #MAX_CHECKPOINT_BATCH}, up to half the per-second rate per call (etcd's
     * checkpointScheduledLeases, run every 500 ms). Returns the number proposed.
     */
    public int proposeDueCheckpoints() {
        Checkpointer cp = checkpointer;
        int proposed = 0;
        for (int i = 0; i < CHECKPOINT_RATE / 2 && cp != null; i++) {
            List<LeaseCheckpoint> due = dueCheckpoints(MAX_CHECKPOINT_BATCH);
            if (!due.isEmpty()) {
                cp.propose(LeaseCheckpointRequest.newBuilder().addAllCheckpoints(due).build());
                proposed += due.size();
            }
            if (due.size() < MAX_CHECKPOINT_BATCH) {
                break;
            }
        }
        return proposed;
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
            Checkpointer cp = checkpointer;
            if (cp != null && lease.checkpointedTtlSeconds() > 0) {
                // etcd clears a set checkpoint on renewal, so a new leader gives the renewed lease
                // its full TTL again; at most two such entries per lease per interval.
                cp.propose(LeaseCheckpointRequest.newBuilder().addCheckpoints(
                        LeaseCheckpoint.newBuilder().setID(id).setRemainingTTL(0)).build());
            }
            lease.refresh(clock.getAsLong(), 0);
            metrics.renewed();
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

    /**
     * This member became leader: every lease gets its TTL from now (plus {@code extendNanos}): the
     * remaining TTL of its last checkpoint if one is set, else the full TTL.
     */
    public void promote(long extendNanos) {
        primary = true;
        long now = clock.getAsLong();
        for (Lease l : leases.values()) {
            l.refresh(now, extendNanos);
            scheduleCheckpoint(l);
        }
    }

    /** This member lost leadership: leases stop expiring here and no checkpoints are scheduled. */
    public void demote() {
        primary = false;
        for (Lease l : leases.values()) {
            l.forever();
        }
        synchronized (checkpointQueue) {
            checkpointQueue.clear();
        }
    }

    public boolean isPrimary() {
        return primary;
    }
}
