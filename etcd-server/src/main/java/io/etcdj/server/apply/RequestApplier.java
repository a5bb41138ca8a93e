package io.etcdj.server.apply;

import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * One stage of applying a committed request. Stages wrap each other in etcd's order
 * ({@link #chain}): corruption, then capacity, then the backend; authentication and quota
 * stages take their places in the same chain. Every member runs the same chain over the same
 * entries and alarms, so every member gives the same answer.
 */
public interface RequestApplier {
    ApplyResult apply(InternalRaftRequest r, WriteBatch batch);

    /** etcd's applier order around {@code backend}: corrupt, capped, backend. */
    static RequestApplier chain(AlarmStore alarms, RequestApplier backend) {
        return new CorruptApplier(alarms, new CappedApplier(alarms, backend));
    }
}
