package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Multi-member clusters of our server as real processes, driven with the real etcdctl: failover
 * without losing acknowledged writes, catch-up after restart, the two-phase member add, learner
 * promotion, leader transfer, removal, and a five-member cluster losing two members.
 */
class ClusterIT {
    private static final Pattern LEADER_ID = Pattern.compile("\"leader\":(\\d+)");
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\":(\\d+)");

    private static Etcdctl ctl(String endpoints) {
        return new Etcdctl(endpoints);
    }

    /** Polls until {@code probe} gives a value, for at most {@code seconds}. */
    private static <T> T eventually(int seconds, String what, Supplier<Optional<T>> probe) throws InterruptedException {
        return Eventually.get(what, Duration.ofSeconds(seconds), () -> probe.get().orElse(null));
    }

    /** Index of the member that reports itself leader. */
    private static int leaderIndex(ProcessCluster c) throws InterruptedException {
        return eventually(30, "a leader", () -> {
            for (int i = 0; i < c.members().size(); i++) {
                EtcdProcess m = c.member(i);
                if (!m.isAlive()) {
                    continue;
                }
                Etcdctl.Result r = ctl(m.endpoint()).run("endpoint", "status", "-w", "json");
                Matcher lead = LEADER_ID.matcher(r.stdout());
                Matcher self = MEMBER_ID.matcher(r.stdout());
                if (r.exitCode() == 0 && lead.find() && self.find() && lead.group(1).equals(self.group(1))) {
                    return Optional.of(i);
                }
            }
            return Optional.empty();
        });
    }

    /**
     * /metrics after the promotion: the leader counts bytes sent to the new member and holds an
     * active link to it, the new member counts bytes received from the leader, and exactly one
     * member counted the promotion.
     */
    private static void assertPeerMetrics(ProcessCluster c, EtcdProcess learner, String learnerId) throws Exception {
        EtcdProcess leader = c.member(leaderIndex(c));
        String leaderId = hexId(leader);
        String onLeader = scrape(leader);
        assertTrue(sample(onLeader, "etcd_network_peer_sent_bytes_total{To=\"" + learnerId + "\"}") > 0, onLeader);
        assertEquals(1, sample(onLeader, "etcd_network_active_peers{Local=\"" + leaderId + "\",Remote=\"" + learnerId + "\"}"));
        String onLearner = scrape(learner);
        assertTrue(sample(onLearner, "etcd_network_peer_received_bytes_total{From=\"" + leaderId + "\"}") > 0, onLearner);
        double promotions = 0;
        for (EtcdProcess m : c.members()) {
            promotions += sample(scrape(m), "etcd_server_learner_promote_successes");
        }
        assertEquals(1, promotions);
    }

    private static String scrape(EtcdProcess m) throws Exception {
        var req = HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + "/metrics")).build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
    }

    private static double sample(String body, String series) {
        return body.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(series + " not exported:\n" + body));
    }

    private static String hexId(EtcdProcess m) {
        Etcdctl.Result r = ctl(m.endpoint()).run("endpoint", "status", "-w", "json").ok();
        Matcher self = MEMBER_ID.matcher(r.stdout());
        assertTrue(self.find(), r.stdout());
        return Long.toHexString(Long.parseUnsignedLong(self.group(1)));
    }

    @Test
    void acknowledgedWritesSurviveLeaderKillAndTheOldLeaderCatchesUp() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            List<String> acked = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ctl(c.member(i).endpoint()).run("put", "fo/before-" + i, "v" + i).ok();
                acked.add("fo/before-" + i);
            }
            int leader = leaderIndex(c);
            EtcdProcess old = c.member(leader);
            old.kill9();
            String survivors = c.endpoints();
            eventually(30, "a write after the leader was killed", () ->
                    ctl(survivors).run("put", "fo/after", "x").exitCode() == 0 ? Optional.of(true) : Optional.empty());
            acked.add("fo/after");
            int newLeader = leaderIndex(c);
            assertNotEquals(leader, newLeader);
            String keys = ctl(survivors).run("get", "fo/", "--prefix", "--keys-only").ok().stdout();
            for (String k : acked) {
                assertTrue(keys.contains(k), k + " lost after failover: " + keys);
            }
            old.start();
            String caughtUp = eventually(30, "the old leader catching up", () -> {
                Etcdctl.Result r = ctl(old.endpoint()).run("get", "fo/after", "--consistency=s", "--print-value-only");
                return r.exitCode() == 0 && r.stdout().equals("x\n") ? Optional.of(r.stdout()) : Optional.empty();
            });
            assertEquals("x\n", caughtUp);
        }
    }

    @Test
    void twoPhaseAddPromoteMoveLeaderAndRemove() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            ctl(c.endpoints()).run("put", "re/k", "v").ok();
            EtcdProcess learner = c.newMember("m4");
            Etcdctl.Result add = ctl(c.endpoints()).run("member", "add", "m4", "--peer-urls=" + learner.peerUrl(), "--learner").ok();
            assertTrue(add.stdout().contains("added to cluster"), add.stdout());
            Matcher ic = Pattern.compile("ETCD_INITIAL_CLUSTER=\"([^\"]+)\"").matcher(add.stdout());
            assertTrue(ic.find(), add.stdout());
            assertTrue(add.stdout().contains("ETCD_INITIAL_CLUSTER_STATE=\"existing\""), add.stdout());
            String listed = ctl(c.endpoints()).run("member", "list").ok().stdout();
            assertTrue(listed.contains("unstarted") && listed.contains(learner.peerUrl() + ", , true"), listed);

            c.startJoining(learner, ic.group(1));
            eventually(30, "the learner catching up", () -> {
                Etcdctl.Result r = ctl(learner.endpoint()).run("get", "re/k", "--consistency=s", "--print-value-only");
                return r.stdout().equals("v\n") ? Optional.of(true) : Optional.empty();
            });
            String learnerId = hexId(learner);
            eventually(30, "the learner promotion", () ->
                    ctl(c.endpoints()).run("member", "promote", learnerId).exitCode() == 0 ? Optional.of(true) : Optional.empty());
            assertTrue(ctl(c.endpoints()).run("member", "list").ok().stdout().contains(learnerId + ", started, m4,"));
            assertPeerMetrics(c, learner, learnerId);

            int leader = leaderIndex(c);
            Etcdctl.Result move = ctl(c.member(leader).endpoint()).run("move-leader", learnerId).ok();
            assertTrue(move.stdout().startsWith("Leadership transferred from"), move.stdout());
            assertEquals(3, leaderIndex(c));

            EtcdProcess removed = c.member(leader == 0 ? 1 : 0);
            String removedId = hexId(removed);
            Etcdctl.Result rm = ctl(learner.endpoint()).run("member", "remove", removedId).ok();
            // etcdctl prints the ID with Go's %16x: space-padded when it has fewer than 16 hex digits
            assertTrue(rm.stdout().contains("Member " + String.format("%16s", removedId) + " removed from cluster"), rm.stdout());
            eventually(30, "the removed member stopping", () -> removed.isAlive() ? Optional.empty() : Optional.of(true));
            // etcd's main exits 0 when its server stops for the removal (etcd's e2e member-remove tests
            // stop every member and fail on any other status)
            assertEquals(0, removed.exitCode(), "a removed member exits with status 0, as etcd");
            assertFalse(ctl(learner.endpoint()).run("member", "list").ok().stdout().contains(removedId));
            ctl(learner.endpoint()).run("put", "re/after-remove", "ok").ok();
        }
    }

    @Test
    void fiveMembersSurviveTwoFailures() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 5)) {
            ctl(c.endpoints()).run("put", "five/k", "1").ok();
            c.member(leaderIndex(c)).kill9();
            c.member(leaderIndex(c)).kill9();
            String left = c.endpoints();
            eventually(30, "a write with two members down", () ->
                    ctl(left).run("put", "five/k", "2").exitCode() == 0 ? Optional.of(true) : Optional.empty());
            assertEquals("2\n", ctl(left).run("get", "five/k", "--print-value-only").ok().stdout());
        }
    }
}
