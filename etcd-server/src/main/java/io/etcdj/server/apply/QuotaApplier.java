package io.etcdj.server.apply;

import io.etcdj.server.error.EtcdError;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/**
 * etcd's quota stage, next to the backend: a put, lease grant or writing transaction that
 * does not fit the quota is still applied (every member applies the same entries and their
 * sizes may differ), but answers {@code etcdserver: mvcc: database space exceeded}; the server
 * then raises the NOSPACE alarm through Raft, after which the capped stage refuses such
 * requests before they touch the store.
 */
final class QuotaApplier implements RequestApplier {
    private final BackendQuota quota;
    private final RequestApplier next;

    QuotaApplier(BackendQuota quota, RequestApplier next) {
        this.quota = quota;
        this.next = next;
    }

    @Override
    public ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        boolean fits = quota.available(r);
        ApplyResult res = next.apply(r, batch);
        if (res.error() == null && !fits) {
            return ApplyResult.failed(EtcdError.NO_SPACE.exception());
        }
        return res;
    }
}
