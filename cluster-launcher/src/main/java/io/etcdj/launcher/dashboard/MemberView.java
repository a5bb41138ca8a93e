package io.etcdj.launcher.dashboard;

import java.util.List;

/**
 * One member as the page draws it: what the launcher knows (process, pid, state, faults) joined
 * with what the member last said about itself.
 *
 * @param state the process: running, paused, stopped, killed or exited
 * @param answering whether the member answered its last Status call in time
 * @param role leader, follower, learner, "no leader" (it answers but knows none) or "" (unknown)
 * @param id the member ID in hex, as etcdctl prints it; remembered while the member is down
 * @param health "healthy", "unhealthy: reason", or "" when /health did not answer
 */
record MemberView(String process, String name, String id, long pid, String state, boolean partitioned,
        int delayMillis, String clientUrl, String peerUrl, boolean answering, String failure, String role, long term,
        long commitIndex, long appliedIndex, long dbSize, long dbSizeInUse, List<String> alarms, String health,
        String version) {

    boolean isLeader() {
        return answering && "leader".equals(role);
    }

    boolean isDown() {
        return !"running".equals(state);
    }
}
