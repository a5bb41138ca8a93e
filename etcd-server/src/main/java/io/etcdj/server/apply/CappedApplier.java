package io.etcdj.server.apply;

import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * While a NOSPACE alarm is raised, refuses what would grow the database, as etcd's capped applier
 * does: puts, lease grants and any transaction that writes. Reads, deletes, compaction, lease
 * revocation and alarm changes pass, so an operator can free space and disarm the alarm. Requests
 * proposed before the alarm was raised are refused too when they apply after it.
 */
final class CappedApplier implements RequestApplier {
    private final AlarmStore alarms;
    private final RequestApplier next;

    CappedApplier(AlarmStore alarms, RequestApplier next) {
        this.alarms = alarms;
        this.next = next;
    }

    @Override
    public ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        if (alarms.has(AlarmType.NOSPACE) && grows(r)) {
            return ApplyResult.failed(EtcdError.NO_SPACE.exception());
        }
        return next.apply(r, batch);
    }

    private static boolean grows(InternalRaftRequest r) {
        return switch (r.getRequestCase()) {
            case PUT, LEASE_GRANT -> true;
            case TXN -> !readOnly(r.getTxn());
            default -> false;
        };
    }

    private static boolean readOnly(TxnRequest t) {
        return t.getSuccessList().stream().allMatch(CappedApplier::readOnly)
                && t.getFailureList().stream().allMatch(CappedApplier::readOnly);
    }

    private static boolean readOnly(RequestOp op) {
        return switch (op.getRequestCase()) {
            case REQUEST_RANGE -> true;
            case REQUEST_TXN -> readOnly(op.getRequestTxn());
            default -> false;
        };
    }
}
