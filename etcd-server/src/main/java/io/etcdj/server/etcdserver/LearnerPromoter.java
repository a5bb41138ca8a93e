package io.etcdj.server.etcdserver;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code --auto-promote-learners} (beyond etcd, its #15107): on the leader, each pass looks at the
 * learners and promotes the first one that etcd's own readiness rule accepts (its match index is
 * at least 90% of the leader's commit index, {@link PeerBridge#learnerReady}), through the same
 * path as {@code member promote}, so the promotion is a Raft conf change that {@code member list}
 * shows. A learner that has not received anything yet (match 0) is never promoted. One promotion
 * is in flight at a time; a refused or failed one is logged and tried again at a later pass.
 */
final class LearnerPromoter {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** The leader's view: its commit index and each learner's match index (0 when unknown). */
    record Progress(long commit, Map<Long, Long> learnerMatch) {
    }

    /** What the promoter reads and does. */
    interface Cluster {
        /** The leader's progress, or null when this member does not lead. */
        Progress progress();

        /** Promotes {@code learner} as {@code member promote} does. */
        CompletableFuture<?> promote(long learner);
    }

    private final Cluster cluster;
    private final AtomicBoolean promoting = new AtomicBoolean();

    LearnerPromoter(Cluster cluster, LogSink logs) {
        this.log = logs.logger("etcdserver/learner-promoter");
        this.cluster = cluster;
    }

    /** etcd's rule (isLearnerReady): the learner's match is at least 90% of the leader's commit. */
    static boolean inSync(long match, long commit) {
        return match >= commit * 9 / 10;
    }

    /** One pass; returns the learner whose promotion it started, or 0. */
    long check() {
        if (promoting.get()) {
            return 0;
        }
        Progress p = cluster.progress();
        if (p == null) {
            return 0;
        }
        for (Map.Entry<Long, Long> learner : p.learnerMatch().entrySet()) {
            long id = learner.getKey();
            long match = learner.getValue();
            if (match == 0 || !inSync(match, p.commit()) || !promoting.compareAndSet(false, true)) {
                continue;
            }
            log.info("promoting learner automatically: its log has caught up with the leader's",
                    "member-id", MemberIds.hex(id), "match", match, "leader-commit", p.commit());
            CompletableFuture<?> promotion;
            try {
                promotion = cluster.promote(id);
            } catch (RuntimeException e) {
                promotion = CompletableFuture.failedFuture(e);
            }
            promotion.whenComplete((r, e) -> {
                promoting.set(false);
                if (e == null) {
                    log.info("promoted learner automatically", "member-id", MemberIds.hex(id));
                } else {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    log.warn("failed to promote learner automatically; will retry", "member-id", MemberIds.hex(id),
                            "error", String.valueOf(cause.getMessage()));
                }
            });
            return id;
        }
        return 0;
    }
}
