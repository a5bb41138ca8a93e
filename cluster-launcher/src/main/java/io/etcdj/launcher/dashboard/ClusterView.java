package io.etcdj.launcher.dashboard;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The cluster at one moment.
 *
 * @param running whether a supervisor is in charge of the cluster (false: stopped or never started)
 * @param phase the state file's phase (starting, running, stopping, stopped, failed) or "none"
 * @param faults "proxy" when partition and delay work, else "none"
 * @param leader the process name of the member leading in the highest term seen, or null
 * @param term the highest Raft term any member reported
 */
record ClusterView(long at, boolean running, String phase, String baseDir, String faults, boolean tls,
        String leader, long term, List<MemberView> members) {

    Optional<MemberView> member(String process) {
        return members.stream().filter(m -> m.process().equals(process)).findFirst();
    }

    /** Among the members that answer and call themselves leader, the one in the highest term. */
    static Optional<MemberView> leaderOf(List<MemberView> members) {
        return members.stream().filter(MemberView::isLeader)
                .max(Comparator.comparingLong(MemberView::term));
    }
}
