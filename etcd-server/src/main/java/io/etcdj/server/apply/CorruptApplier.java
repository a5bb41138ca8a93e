package io.etcdj.server.apply;

import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * While a CORRUPT alarm is raised, refuses every key-value and lease request with
 * {@code etcdserver: corrupt cluster}, as etcd's corrupt applier does; membership, alarm and
 * publish requests still apply, so the cluster can be inspected and repaired.
 */
final class CorruptApplier implements RequestApplier {
    private final AlarmStore alarms;
    private final RequestApplier next;

    CorruptApplier(AlarmStore alarms, RequestApplier next) {
        this.alarms = alarms;
        this.next = next;
    }

    @Override
    public ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        if (alarms.has(AlarmType.CORRUPT) && touchesData(r)) {
            return ApplyResult.failed(EtcdError.CORRUPT.exception());
        }
        return next.apply(r, batch);
    }

    private static boolean touchesData(InternalRaftRequest r) {
        return switch (r.getRequestCase()) {
            case PUT, DELETE_RANGE, TXN, COMPACTION, LEASE_GRANT, LEASE_REVOKE -> true;
            default -> false;
        };
    }
}
