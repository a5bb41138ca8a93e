package io.etcdj.server.apply;

import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * One stage of applying a committed request. Stages wrap each other in etcd's order
 * ({@link #chain}): corruption, then capacity (NOSPACE raised), then the quota, then the
 * backend; authentication takes its place (between capacity and quota) in the same chain. Every member runs the same chain over the same
 * entries and alarms, so every member gives the same answer.
 */
public interface RequestApplier {
    ApplyResult apply(InternalRaftRequest r, WriteBatch batch);

    /** etcd's applier order around {@code backend}: corrupt, capped, quota, backend. */
    static RequestApplier chain(AlarmStore alarms, BackendQuota quota, RequestApplier backend) {
        return new CorruptApplier(alarms, new CappedApplier(alarms, new QuotaApplier(quota, backend)));
    }
}
