package io.etcdj.server.apply;

import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * One stage of applying a committed request. Stages wrap each other in etcd's order
 * ({@link #chain}): corruption, then capacity (NOSPACE raised), then authentication and
 * permissions, then the quota, then the backend. Every member runs the same chain over the same
 * entries, alarms and auth state, so every member gives the same answer.
 */
public interface RequestApplier {
    ApplyResult apply(InternalRaftRequest r, WriteBatch batch);

    /** etcd's applier order around {@code backend}: corrupt, capped, auth, quota, backend. */
    static RequestApplier chain(AlarmStore alarms, AuthStore auth, Lessor lessor, BackendQuota quota,
                                RequestApplier backend) {
        return new CorruptApplier(alarms, new CappedApplier(alarms,
                new AuthApplier(auth, lessor, new QuotaApplier(quota, backend))));
    }
}
