package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.StatusResponse;

/** What the Maintenance operations report of the member besides headers: Status and the cluster version. */
interface MemberState extends Headers {
    StatusResponse status();

    /** The cluster version: ours, or a downgrade job's target while one is enabled. */
    String clusterVersion();
}
