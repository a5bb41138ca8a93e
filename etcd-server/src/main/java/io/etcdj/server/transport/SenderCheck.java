package io.etcdj.server.transport;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;

/** Whether traffic from another member may pass: its cluster must be ours, and it must not have been removed. */
final class SenderCheck {
    static final String REMOVED = "the member has been permanently removed from the cluster";
    static final String CLUSTER_MISMATCH = "cluster ID mismatch";
    static final String TO_MISMATCH = "raft-to mismatch";

    private final Log log;
    private final PeerHandler handler;

    SenderCheck(PeerHandler handler, LogSink logs) {
        this.log = logs.logger("rafthttp/stream");
        this.handler = handler;
    }

    /** Why traffic that {@code from} says is for {@code clusterId} is refused (logged as etcd logs it), or null. */
    String refusal(long clusterId, long from) {
        long local = handler.clusterId();
        if (local != 0 && clusterId != local) {
            log.warn("request cluster ID mismatch", "local-member-id", MemberIds.hex(handler.memberId()),
                    "local-member-cluster-id", MemberIds.hex(local), "remote-peer-id", MemberIds.hex(from),
                    "remote-peer-cluster-id", MemberIds.hex(clusterId));
            return CLUSTER_MISMATCH;
        }
        return removed(from);
    }

    /** Why a stream {@code from} that member is refused now, or null. */
    String removed(long from) {
        if (handler.isRemoved(from)) {
            log.warn("rejected stream from remote peer because it was removed",
                    "local-member-id", MemberIds.hex(handler.memberId()), "remote-peer-id-stream-handler", MemberIds.hex(from));
            return REMOVED;
        }
        return null;
    }

    /** Why a stream meant for member {@code to} is refused here (another member has this URL now), or null. */
    String notFor(long to, long from) {
        if (to != handler.memberId()) {
            log.warn("ignored streaming request; ID mismatch", "local-member-id", MemberIds.hex(handler.memberId()),
                    "remote-peer-id-stream-handler", MemberIds.hex(from), "remote-peer-id-header", MemberIds.hex(to));
            return TO_MISMATCH;
        }
        return null;
    }
}
