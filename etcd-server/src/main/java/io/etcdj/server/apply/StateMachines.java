package io.etcdj.server.apply;

import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.auth.SimpleTokens;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Everything Raft entries are applied to, opened together from one backend file and restored to
 * the state of the last applied entry (whose index is the consistent index).
 */
public final class StateMachines implements AutoCloseable {
    public final Backend backend;
    public final MvccStore store;
    public final Lessor lessor;
    public final Membership membership;
    public final AlarmStore alarms;
    /** The cluster's downgrade job. */
    public final DowngradeStore downgrade = new DowngradeStore();
    /** Users, roles and the auth switch. */
    public final AuthStore auth;
    /** The applier chain (corrupt, capped, auth, quota, backend). */
    public final RequestApplier applier;
    /** --quota-backend-bytes against this backend. */
    public final BackendQuota quota;
    private volatile long consistentIndex;

    private StateMachines(Backend backend, long quotaBytes, LongSupplier nanoClock, long minLeaseTtl, Metrics metrics,
                          LogSink logs) {
        this.backend = backend;
        this.store = MvccStore.open(backend, metrics.mvcc, logs);
        this.lessor = new Lessor(nanoClock, minLeaseTtl, metrics.leases);
        this.membership = new Membership(metrics.v2store);
        this.alarms = new AlarmStore();
        this.auth = new AuthStore(new SimpleTokens(nanoClock, 300));
        restoreOthers();
        this.quota = new BackendQuota(backend::recentSizeInUse, quotaBytes);
        this.applier = RequestApplier.chain(alarms, auth, lessor, quota, new Applier(lessor, membership, alarms, auth, downgrade));
    }

    private void restoreOthers() {
        try (ReadView v = store.openRead()) {
            lessor.restore(v.backendRead());
            v.forEachLeased((key, lease) -> lessor.attach(lease, key));
            long clusterId = membership.clusterId();
            membership.restore(v.backendRead());
            membership.setClusterId(clusterId);
            alarms.restore(v.backendRead());
            auth.restore(v.backendRead());
            downgrade.restore(v.backendRead());
            byte[] ci = v.backendRead().get(Bucket.META, MetaKeys.CONSISTENT_INDEX);
            this.consistentIndex = ci == null ? 0 : Bytes.toLong(ci);
        }
    }

    /**
     * Installs a backend file received from the leader: every state machine reloads from it.
     * Only the apply loop calls this, between batches.
     */
    public void installSnapshot(Path dbFile) {
        backend.replaceWith(dbFile);
        store.reload();
        boolean primary = lessor.isPrimary();
        restoreOthers();
        if (primary) {
            lessor.promote(0);
        }
    }

    public static StateMachines open(Path dbFile, long quotaBytes, LongSupplier nanoClock, long minLeaseTtl) {
        return open(dbFile, quotaBytes, nanoClock, minLeaseTtl, new Metrics(), Log.processSink(), false);
    }

    /**
     * A member's state machines, counting into its {@code metrics}, logging to its {@code logs};
     * {@code unsafeNoFsync}: see {@link Backend#open(Path, long, io.etcdj.server.metrics.BackendMetrics, LogSink, boolean)}.
     */
    public static StateMachines open(Path dbFile, long quotaBytes, LongSupplier nanoClock, long minLeaseTtl, Metrics metrics,
                                     LogSink logs, boolean unsafeNoFsync) {
        return new StateMachines(Backend.open(dbFile, quotaBytes, metrics.backend, logs, unsafeNoFsync), quotaBytes, nanoClock,
                minLeaseTtl, metrics, logs);
    }

    /** Index of the last Raft entry whose effects are in the backend. */
    public long consistentIndex() {
        return consistentIndex;
    }

    @Override
    public void close() {
        store.close();
        backend.close();
    }
}
