package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.wait.Waiters;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Membership changes as Raft conf changes, beside the applier: proposed with the member record as
 * context, applied to the membership (when the entry is new to the backend), to Raft and to the
 * peer transport, and the member's own removal (etcd's server.go configure / applyConfChange).
 */
final class ConfChanges {
    private final Log log;
    private final RaftLoop raft;
    private final Transporter transport;
    private final Membership membership;
    private volatile boolean removed;
    private final Waiters<ApplyResult> waiters;
    private final IdGenerator ids;
    private final Lifecycle lifecycle;
    /** Where the member's own removal is handled: never the apply thread, which stopping closes. */
    private final Executor removal;
    private final long memberId;
    private final long requestTimeoutMillis;

    ConfChanges(RaftLoop raft, Transporter transport, Membership membership, Waiters<ApplyResult> waiters, IdGenerator ids,
                Lifecycle lifecycle, Executor removal, long memberId, long requestTimeoutMillis, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.raft = raft;
        this.transport = transport;
        this.membership = membership;
        this.waiters = waiters;
        this.ids = ids;
        this.lifecycle = lifecycle;
        this.removal = removal;
        this.memberId = memberId;
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    /** Proposes a membership change and completes when it is applied here. */
    CompletableFuture<ApplyResult> propose(ConfChangeType type, long nodeId, Member context) {
        if (lifecycle.closed()) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        long id = ids.next();
        ConfChange.Builder cc = ConfChange.newBuilder().setId(id).setType(type).setNodeId(nodeId);
        if (context != null) {
            cc.setContext(context.toByteString());
        }
        CompletableFuture<ApplyResult> f = waiters.register(id, TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis));
        raft.proposeConfChange(cc.build(), f);
        return f;
    }

    /**
     * Applies a committed conf change (on the apply thread): to the membership in the entry's
     * batch if {@code fresh} (not yet in the backend), then to Raft and the peer links.
     */
    void apply(ConfChange cc, WriteBatch batch, boolean fresh) {
        if (fresh) {
            Member ctx = cc.getContext().isEmpty() ? null : ApplyLoop.parseMember(cc.getContext().toByteArray());
            membership.apply(batch.backendTx(), cc.getType(), cc.getNodeId(), ctx);
        }
        raft.applyConfChange(cc);
        if (cc.getType() == ConfChangeType.ConfChangeRemoveNode) {
            if (cc.getNodeId() == memberId) {
                removal.execute(this::removedFromCluster);
            } else {
                transport.removePeer(cc.getNodeId());
            }
        }
    }

    /** Whether this member stopped because it was removed from the cluster (not a failure). */
    boolean isRemoved() {
        return removed;
    }

    /**
     * This member was removed (or another member refused us as removed): stop, as etcd does. etcd's
     * process then exits with status 0 (its server stopped, nothing failed): {@link #isRemoved}.
     */
    void removedFromCluster() {
        removed = true;
        log.error("the member has been permanently removed from the cluster",
                "local-member-id", MemberIds.hex(memberId));
        log.error("the data-dir used by this member must be removed");
        lifecycle.stopForFailure();
    }
}
