package io.etcdj.launcher.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventDetectorTest {
    private final EventDetector detector = new EventDetector();

    private static MemberView member(String name, String state, String role, long term, boolean partitioned) {
        boolean answering = "running".equals(state) && !role.isEmpty();
        return new MemberView(name, name, "1", 100, state, partitioned, 0, "http://127.0.0.1:1", "http://127.0.0.1:2",
                answering, "", role, term, 5, 5, 1, 1, List.of(), "", "3.4.0");
    }

    private static ClusterView view(long at, MemberView... members) {
        List<MemberView> list = List.of(members);
        String leader = ClusterView.leaderOf(list).map(MemberView::process).orElse(null);
        long term = list.stream().filter(MemberView::answering).mapToLong(MemberView::term).max().orElse(0);
        return new ClusterView(at, true, "running", "base", "proxy", false, leader, term, list);
    }

    private List<String> texts(ClusterView v) {
        List<String> out = new ArrayList<>();
        detector.observe(v).forEach(e -> out.add(e.kind() + ": " + e.text()));
        return out;
    }

    @Test
    void aKilledLeaderAndTheElectionAfterIt() {
        assertEquals(List.of("leader: m1 is the leader (term 2)"), texts(view(1000,
                member("m1", "running", "leader", 2, false), member("m2", "running", "follower", 2, false),
                member("m3", "running", "follower", 2, false))));
        assertEquals(List.of("member: m1 killed (SIGKILL)", "leader: no member answers as leader (m1 was)"), texts(view(1250,
                member("m1", "killed", "", 0, false), member("m2", "running", "follower", 2, false),
                member("m3", "running", "follower", 2, false))));
        assertEquals(List.of("leader: m3 elected leader in term 3, 1500 ms after m1 (the leader) killed"), texts(view(2750,
                member("m1", "killed", "", 0, false), member("m2", "running", "follower", 3, false),
                member("m3", "running", "leader", 3, false))));
    }

    @Test
    void theElectionIsTimedFromTheDashboardsActionWhenThatCameFirst() {
        texts(view(1000, member("m1", "running", "leader", 2, false), member("m2", "running", "follower", 2, false)));
        detector.actionSent("m1", "partition", 1100);
        assertEquals(List.of("fault: m1 partitioned from its peers"), texts(view(1200,
                member("m1", "running", "leader", 2, true), member("m2", "running", "follower", 2, false))));
        // the old leader still claims office in its term; the higher term wins
        assertEquals(List.of("leader: m2 elected leader in term 3, 900 ms after m1 (the leader) was partitioned"), texts(view(2000,
                member("m1", "running", "leader", 2, true), member("m2", "running", "leader", 3, false))));
    }

    @Test
    void aLeaderThatAnswersLateIsNoElection() {
        texts(view(0, member("m1", "running", "leader", 2, false), member("m2", "running", "follower", 2, false)));
        // m1's Status timed out on a busy machine; m2 still follows it
        assertEquals(List.of(), texts(view(2000, member("m1", "running", "", 0, false), member("m2", "running", "follower", 2, false))));
        assertEquals(List.of(), texts(view(2500, member("m1", "running", "leader", 2, false),
                member("m2", "running", "follower", 2, false))));
    }

    @Test
    void aClusterThatAppearsHasNoJoinEvents() {
        ClusterView none = new ClusterView(0, false, "none", "", "none", false, null, 0, List.of());
        assertEquals(List.of(), texts(none));
        assertEquals(List.of("member: the cluster is running: m1, m2"), texts(view(500,
                member("m1", "running", "", 0, false), member("m2", "running", "", 0, false))));
        assertEquals(List.of("leader: m2 is the leader (term 2)"), texts(view(900,
                member("m1", "running", "follower", 2, false), member("m2", "running", "leader", 2, false))));
    }

    @Test
    void membershipAndPromotion() {
        texts(view(0, member("m1", "running", "leader", 2, false)));
        assertEquals(List.of("membership: m4 joined the cluster as a learner"), texts(view(100,
                member("m1", "running", "leader", 2, false), member("m4", "running", "learner", 2, false))));
        assertEquals(List.of("membership: m4 was promoted to a voting member"), texts(view(200,
                member("m1", "running", "leader", 2, false), member("m4", "running", "follower", 2, false))));
        assertEquals(List.of("membership: m4 was removed from the cluster"), texts(view(300,
                member("m1", "running", "leader", 2, false))));
    }

    @Test
    void healthChangesAreReportedFromHealthyAndBack() {
        MemberView starting = new MemberView("m1", "m1", "1", 1, "running", false, 0, "u", "p", true, "", "leader", 2, 1, 1,
                1, 1, List.of(), "unhealthy: NO LEADER", "");
        texts(view(0, starting));
        assertEquals(List.of(), texts(view(100, withHealth(starting, "healthy"))), "becoming healthy at start is no news");
        assertEquals(List.of("health: m1 is unhealthy: RANGE ERROR"), texts(view(200, withHealth(starting, "unhealthy: RANGE ERROR"))));
        assertEquals(List.of("health: m1 is healthy again"), texts(view(300, withHealth(starting, "healthy"))));
    }

    private static MemberView withHealth(MemberView m, String health) {
        return new MemberView(m.process(), m.name(), m.id(), m.pid(), m.state(), m.partitioned(), m.delayMillis(), m.clientUrl(),
                m.peerUrl(), m.answering(), m.failure(), m.role(), m.term(), m.commitIndex(), m.appliedIndex(), m.dbSize(),
                m.dbSizeInUse(), m.alarms(), health, m.version());
    }

    @Test
    void aMoveLeaderIsReportedAsAHandOver() {
        texts(view(0, member("m1", "running", "leader", 2, false), member("m2", "running", "follower", 2, false)));
        detector.actionSent("m2", "move-leader", 100);
        assertEquals(List.of("leader: m2 elected leader in term 3, 150 ms after leadership was handed to m2"), texts(view(250,
                member("m1", "running", "follower", 3, false), member("m2", "running", "leader", 3, false))));
    }
}
