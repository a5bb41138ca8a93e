package io.etcdj.server.etcdserver;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import java.util.List;

/**
 * etcd 3.6's downgrade monitor: every --downgrade-check-time the leader looks at a running
 * downgrade job and, once every member's server runs the target's major.minor, logs that the
 * cluster has been downgraded and cancels the job (the cluster version then follows the members'
 * versions). A member whose version cannot be read keeps the job running.
 */
final class DowngradeMonitor {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** What the monitor reads and does. */
    interface Cluster {
        boolean isLeader();

        /** The running job's target ("3.5.0"), null when no downgrade is enabled. */
        String downgradeTarget();

        List<Long> members();

        /** A member's server version; throws when it cannot be read. */
        String serverVersion(long member);

        void cancelDowngrade();
    }

    private final Cluster cluster;

    DowngradeMonitor(Cluster cluster, LogSink logs) {
        this.log = logs.logger("etcdserver/version/monitor");
        this.cluster = cluster;
    }

    /** One pass; true when it cancelled the job. */
    boolean check() {
        if (!cluster.isLeader()) {
            return false;
        }
        String target = cluster.downgradeTarget();
        if (target == null) {
            return false;
        }
        String want = majorMinor(target);
        for (long id : cluster.members()) {
            String v;
            try {
                v = cluster.serverVersion(id);
            } catch (RuntimeException e) {
                log.warn("failed to get version", "remote-member-id", MemberIds.hex(id), "error", String.valueOf(e.getMessage()));
                return false;
            }
            if (!want.equals(majorMinor(v))) {
                return false;
            }
        }
        log.info("the cluster has been downgraded", "cluster-version", target);
        cluster.cancelDowngrade();
        return true;
    }

    private static String majorMinor(String version) {
        String[] p = version.split("\\.");
        return p.length >= 2 ? p[0] + "." + p[1] : version;
    }
}
