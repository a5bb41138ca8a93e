package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The alarms the member raises itself, and what a raised NOSPACE alarm refuses before a request
 * is proposed (etcd's quota check in processInternalRaftRequest and its alarm triggers).
 */
final class MemberAlarms {
    private final Log log;
    private final StateMachines sm;
    private final Proposer proposer;
    private final Lifecycle lifecycle;
    private final long memberId;
    /** A NOSPACE alarm is being proposed: one proposal at a time. */
    private final AtomicBoolean raisingNoSpace = new AtomicBoolean();

    MemberAlarms(StateMachines sm, Proposer proposer, Lifecycle lifecycle, long memberId, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.sm = sm;
        this.proposer = proposer;
        this.lifecycle = lifecycle;
        this.memberId = memberId;
    }

    /**
     * Whether {@code request} may be proposed as far as space goes: not while NOSPACE is raised
     * if it consumes space, and not past the quota (which raises NOSPACE).
     */
    boolean admits(InternalRaftRequest request) {
        if (sm.alarms.has(AlarmType.NOSPACE) && isSpaceConsuming(request)) {
            return false;
        }
        if (!sm.quota.available(request)) {
            raiseNoSpace();
            return false;
        }
        return true;
    }

    /**
     * Proposes this member's NOSPACE alarm (as etcd does when a request would pass the quota),
     * once: the alarm is applied on every member and the capped stage refuses writes from then on.
     */
    void raiseNoSpace() {
        if (lifecycle.closed() || sm.alarms.has(AlarmType.NOSPACE) || !raisingNoSpace.compareAndSet(false, true)) {
            return;
        }
        log.warn("message exceeded backend quota; raising alarm", "quota-size-bytes", sm.quota.quotaBytes(),
                "quota-size", (sm.quota.quotaBytes() >> 20) + " MiB", "current-db-size-bytes", sm.backend.size());
        proposer.propose(activate(memberId, AlarmType.NOSPACE)).whenComplete((res, err) -> {
            raisingNoSpace.set(false);
            if (err != null) {
                log.warn("failed to raise NOSPACE alarm", "error", String.valueOf(err.getMessage()));
            }
        });
    }

    /** Proposes the CORRUPT alarm for {@code member} (etcd's TriggerCorruptAlarm). */
    void raiseCorrupt(long member) {
        log.warn("raising CORRUPT alarm", "member-id", Long.toHexString(member));
        proposer.propose(activate(member, AlarmType.CORRUPT));
    }

    private static InternalRaftRequest.Builder activate(long member, AlarmType alarm) {
        return InternalRaftRequest.newBuilder().setAlarm(AlarmRequest.newBuilder().setMemberID(member)
                .setAction(AlarmRequest.AlarmAction.ACTIVATE).setAlarm(alarm));
    }

    private static boolean isSpaceConsuming(InternalRaftRequest r) {
        return switch (r.getRequestCase()) {
            case PUT, LEASE_GRANT -> true;
            case TXN -> r.getTxn().getSuccessList().stream().anyMatch(op -> op.hasRequestPut() || op.hasRequestTxn())
                    || r.getTxn().getFailureList().stream().anyMatch(op -> op.hasRequestPut() || op.hasRequestTxn());
            default -> false;
        };
    }
}
