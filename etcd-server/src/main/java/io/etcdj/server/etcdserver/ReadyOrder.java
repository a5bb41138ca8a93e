package io.etcdj.server.etcdserver;

import io.etcdj.raft.RaftRole;
import io.etcdj.raft.Ready;

/**
 * Where a Ready's steps may leave the order the raft package requires (persist, send, apply,
 * advance) without breaking what that order guarantees.
 */
final class ReadyOrder {
    private ReadyOrder() {
    }

    /**
     * Whether a member in {@code role} at {@code term}, whose saved log ends at {@code lastIndex},
     * sends {@code rd}'s messages before persisting it. A leader does, so followers write the
     * entries while it does (etcd does the same; Raft allows it). Its messages may not announce what
     * is not durable here: not a new term, not a snapshot, not a commit index past the log already
     * saved (a lone voter commits at append; its learners must not hear of that before the fsync).
     */
    static boolean sendsFirst(Ready rd, RaftRole role, long term, long lastIndex) {
        return role == RaftRole.LEADER && rd.snapshot() == null
                && (rd.hardState() == null || rd.hardState().getTerm() == term && rd.hardState().getCommit() <= lastIndex);
    }

    /**
     * Whether {@code rd} only commits, at {@code term}: a leader's Ready once a follower
     * acknowledged, a follower's at the leader's commit notice. Its committed entries are durable
     * here already (an earlier Ready wrote them), so they are handed to the apply loop before its
     * messages leave and its hard state is written: applied in this turn, the writes are answered
     * before the commit notices go to the followers (docs/decisions.md, "Answers before the
     * bookkeeping"). Its hard state changes only the commit index (or a vote in the same term),
     * which a restart may find behind what was applied: {@code RestartPoint} starts Raft at the
     * lower of the two and the apply loop skips what it has.
     */
    static boolean onlyCommits(Ready rd, long term) {
        return !rd.committedEntries().isEmpty() && rd.entries().isEmpty() && rd.snapshot() == null && rd.softState() == null
                && (rd.hardState() == null || rd.hardState().getTerm() == term);
    }
}
