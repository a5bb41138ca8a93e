package io.etcdj.server.metrics;

/**
 * What the snapshotter times: a Raft snapshot file's marshalling, its fsync and its whole save
 * (etcd's etcd_snap_fsync_duration_seconds and etcd_debugging_snap_save_*). The snapshotter is
 * given this, not the member's whole {@link Metrics}.
 */
public final class SnapMetrics {
    private final Metrics.Timing marshalling;
    private final Metrics.Timing fsync;
    private final Metrics.Timing total;

    SnapMetrics(Metrics m) {
        marshalling = m.snapSaveMarshalling;
        fsync = m.snapFsync;
        total = m.snapSaveTotal;
    }

    /** Instruments that count into a registry of their own, for a snapshotter outside a member (the offline tools). */
    public static SnapMetrics unexported() {
        return new Metrics().snap;
    }

    public void marshalled(long startNanos) {
        marshalling.since(startNanos);
    }

    public void fsynced(long startNanos) {
        fsync.since(startNanos);
    }

    public void saved(long startNanos) {
        total.since(startNanos);
    }
}
