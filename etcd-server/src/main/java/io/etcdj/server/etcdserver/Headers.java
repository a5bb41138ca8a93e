package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.ResponseHeader;

/** The header every response carries: cluster, member, Raft term and a revision. */
interface Headers {
    /** At the store's current revision. */
    ResponseHeader header();

    /** At {@code revision} (0: none, as etcd's Cluster responses). */
    ResponseHeader header(long revision);
}
