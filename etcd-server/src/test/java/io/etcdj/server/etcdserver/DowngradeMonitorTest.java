package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.log.LogSink;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** etcd 3.6's downgrade monitor: the leader cancels a running job once every member runs the target. */
class DowngradeMonitorTest {

    private static final class FakeCluster implements DowngradeMonitor.Cluster {
        boolean leader = true;
        String target = "3.5.0";
        Map<Long, String> versions = Map.of(1L, "3.5.13", 2L, "3.5.0", 3L, "3.5.9");
        int cancels;

        @Override
        public boolean isLeader() {
            return leader;
        }

        @Override
        public String downgradeTarget() {
            return target;
        }

        @Override
        public List<Long> members() {
            return List.of(1L, 2L, 3L);
        }

        @Override
        public String serverVersion(long member) {
            String v = versions.get(member);
            if (v == null) {
                throw new IllegalStateException("connection refused");
            }
            return v;
        }

        @Override
        public void cancelDowngrade() {
            cancels++;
        }
    }

    @Test
    void cancelsOnceEveryMemberRunsTheTargetsMinor() {
        FakeCluster c = new FakeCluster();
        assertTrue(new DowngradeMonitor(c, LogSink.stderr()).check());
        assertEquals(1, c.cancels);
    }

    @Test
    void keepsTheJobWhileAMemberRunsAnotherVersionOrCannotBeAsked() {
        FakeCluster c = new FakeCluster();
        c.versions = Map.of(1L, "3.5.13", 2L, "3.6.0", 3L, "3.5.9");
        assertFalse(new DowngradeMonitor(c, LogSink.stderr()).check());
        c.versions = Map.of(1L, "3.5.13", 3L, "3.5.9");
        assertFalse(new DowngradeMonitor(c, LogSink.stderr()).check());
        assertEquals(0, c.cancels);
    }

    @Test
    void onlyTheLeaderAndOnlyWithAJob() {
        FakeCluster follower = new FakeCluster();
        follower.leader = false;
        assertFalse(new DowngradeMonitor(follower, LogSink.stderr()).check());
        FakeCluster idle = new FakeCluster();
        idle.target = null;
        assertFalse(new DowngradeMonitor(idle, LogSink.stderr()).check());
        assertEquals(0, follower.cancels + idle.cancels);
    }
}
