package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.launcher.supervisor.ClusterState;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One detached 3-member cluster from a YAML file, taken through the seed's goreman session and
 * beyond: status, write on one member and read on another, kill and restart, pause and resume,
 * two-phase add of a learner, promote, remove, env, logs, stop and clean.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterLifecycleIT {
    private LauncherHarness h;

    @BeforeAll
    void up() throws Exception {
        h = new LauncherHarness();
        h.write("cluster.yml", h.yaml(3));
        LauncherHarness.Result r = h.run("up", "--detach", "-f", "cluster.yml").expectOk();
        assertTrue(r.out().contains("cluster is up"), r.out());
        assertTrue(r.out().contains("etcd binary: " + LauncherHarness.etcd()), r.out());
    }

    @AfterAll
    void down() throws Exception {
        h.close();
    }

    private String url(String member) {
        return h.state().member(member).orElseThrow().clientUrls().get(0);
    }

    @Test
    @Order(1)
    void statusShowsEveryMemberAndOneLeader() throws Exception {
        // "up" returns once every member answers; the first election may still be under way
        String out = Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200),
                () -> h.run("status", "-f", "cluster.yml").expectOk().out(), o -> o.contains("| true "));
        List<String> rows = out.lines().filter(l -> l.startsWith("| m")).toList();
        assertEquals(3, rows.size(), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("MEMBER") && l.contains("RAFT TERM") && l.contains("DB SIZE")), out);
        assertEquals(1, rows.stream().filter(l -> l.contains("| true ")).count(), "exactly one leader:\n" + out);
        rows.forEach(r -> assertTrue(r.contains("running"), r));
    }

    @Test
    @Order(2)
    void writeOnOneMemberReadOnAnother() throws Exception {
        try (Kv m1 = new Kv(url("m1")); Kv m3 = new Kv(url("m3"))) {
            m1.put("foo", "bar");
            assertEquals("bar", m3.get("foo", 5).orElseThrow());
        }
    }

    @Test
    @Order(3)
    void killedMemberComesBackAndCatchesUp() throws Exception {
        long before = h.state().member("m2").orElseThrow().pid();
        h.run("kill", "m2", "-f", "cluster.yml").expectOk();
        assertFalse(LauncherHarness.alive(before), "SIGKILL took effect");
        assertEquals("killed", h.state().member("m2").orElseThrow().state(), "status tells a kill from a stop");
        try (Kv m1 = new Kv(url("m1"))) {
            // m2 may have been the leader: the first writes can fail until a new one is elected
            Eventually.get("a put through m1", Duration.ofSeconds(30), () -> { m1.put("key", "hello"); return true; });
            assertEquals("hello", m1.get("key", 5).orElseThrow());
        }
        h.run("restart", "m2", "-f", "cluster.yml").expectOk();
        long after = h.state().member("m2").orElseThrow().pid();
        assertTrue(after != before && LauncherHarness.alive(after));
        try (Kv m2 = new Kv(url("m2"))) {
            assertEquals("hello", Eventually.get("key on m2", Duration.ofSeconds(20), () -> m2.get("key", 2).orElse(null)));
        }
    }

    @Test
    @Order(4)
    void pausedMemberAnswersNothingUntilResumed() throws Exception {
        h.run("pause", "m3", "-f", "cluster.yml").expectOk();
        assertTrue(h.run("status", "-f", "cluster.yml").expectOk().out().lines()
                .anyMatch(l -> l.startsWith("| m3") && l.contains("paused")));
        try (Kv m3 = new Kv(url("m3")); Kv m1 = new Kv(url("m1"))) {
            Eventually.get("a put through m1 while m3 is paused", Duration.ofSeconds(30),
                    () -> { m1.put("while-paused", "1"); return true; });
            boolean answered;
            try {
                m3.get("while-paused", 1);
                answered = true;
            } catch (StatusRuntimeException e) {
                answered = false;
            }
            assertFalse(answered, "a SIGSTOPped member cannot answer");
            h.run("resume", "m3", "-f", "cluster.yml").expectOk();
            assertEquals("1", Eventually.get("while-paused on m3", Duration.ofSeconds(20), () -> m3.get("while-paused", 2).orElse(null)));
        }
    }

    @Test
    @Order(5)
    void unknownMemberIsAClearError() {
        LauncherHarness.Result r = h.run("kill", "nope", "-f", "cluster.yml");
        assertEquals(1, r.code());
        assertEquals("Error: unknown member \"nope\" (members: m1, m2, m3)\n", r.err());
    }

    @Test
    @Order(6)
    void addLearnerTwoPhaseThenPromote() throws Exception {
        int client = FreePorts.pickRange(2);
        int peer = FreePorts.pickRange(2);
        LauncherHarness.Result r = h.run("add-member", "m4", "--learner", "-f", "cluster.yml",
                "--client-url", "http://127.0.0.1:" + client, "--peer-url", "http://127.0.0.1:" + peer).expectOk();
        assertTrue(r.out().contains("added to cluster"), r.out());
        assertTrue(r.out().contains("--initial-cluster-state existing"), r.out());
        assertTrue(h.state().member("m4").isPresent());
        // the member is listed by name once it has published it through Raft (its client port may open first, as etcd's)
        Member m4 = Eventually.get("m4 listed by name", Duration.ofSeconds(30),
                () -> members().stream().filter(m -> m.getName().equals("m4")).findFirst().orElse(null));
        assertTrue(m4.getIsLearner());
        Eventually.get("promote m4", Duration.ofSeconds(30), () -> {
            LauncherHarness.Result p = h.run("promote", "m4", "-f", "cluster.yml");
            return p.code() == 0 ? p : null;
        });
        assertFalse(members().stream().filter(m -> m.getName().equals("m4")).findFirst().orElseThrow().getIsLearner());
        try (Kv m4kv = new Kv("http://127.0.0.1:" + client)) {
            assertEquals("bar", Eventually.get("foo on m4", Duration.ofSeconds(20), () -> m4kv.get("foo", 2).orElse(null)));
        }
    }

    @Test
    @Order(7)
    void removeMemberStopsItAndDeletesItsData() throws Exception {
        long pid = h.state().member("m4").orElseThrow().pid();
        String dataDir = h.state().member("m4").orElseThrow().dataDir();
        h.run("remove-member", "m4", "-f", "cluster.yml").expectOk();
        assertEquals(List.of("m1", "m2", "m3"), members().stream().map(Member::getName).sorted().toList());
        assertFalse(LauncherHarness.alive(pid));
        assertFalse(Files.exists(Path.of(dataDir)));
        assertTrue(h.state().member("m4").isEmpty());
    }

    @Test
    @Order(8)
    void envAndLogs() {
        String env = h.run("env", "-f", "cluster.yml").expectOk().out();
        assertEquals("export ETCDCTL_API=3\nexport ETCDCTL_ENDPOINTS=" + url("m1") + "," + url("m2") + "," + url("m3") + "\n", env);
        String logs = h.run("logs", "--file", "cluster.yml").expectOk().out();
        for (String m : List.of("m1", "m2", "m3")) {
            assertTrue(logs.lines().anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d " + m + " \\| .*")), "prefixed lines of " + m);
        }
        String m2 = h.run("logs", "m2", "--file", "cluster.yml", "--tail", "5").expectOk().out();
        assertEquals(5, m2.lines().count(), m2);
    }

    @Test
    @Order(9)
    void stopLeavesNoProcessesAndCleanLeavesNoFiles() throws Exception {
        List<Long> pids = h.seenPids();
        ClusterState before = h.state();
        CompletableFuture<LauncherHarness.Result> follow =
                CompletableFuture.supplyAsync(() -> h.run("logs", "-f", "--file", "cluster.yml"));
        Eventually.get("a live supervisor", Duration.ofSeconds(10), () -> h.state().supervisorAlive() ? true : null);
        h.run("stop", "-f", "cluster.yml").expectOk();
        String followed = follow.get(30, TimeUnit.SECONDS).expectOk().out();
        assertTrue(followed.contains("m1 | (launcher: m1 stopped)"), "logs -f shows the shutdown and ends with it:\n" + followed);
        for (long pid : pids) {
            assertFalse(LauncherHarness.alive(pid), "pid " + pid + " still running");
        }
        ClusterState after = h.state();
        assertEquals(ClusterState.STOPPED, after.phase());
        assertEquals(before.members().size(), after.members().size());
        assertEquals(4, h.run("status", "-f", "cluster.yml").code());
        h.run("clean", "-f", "cluster.yml").expectOk();
        assertFalse(Files.exists(h.baseDir()), "base dir removed");
        try (var left = Files.list(h.dir)) {
            assertEquals(List.of("cluster.yml"), left.map(p -> p.getFileName().toString()).toList());
        }
    }

    private List<Member> members() {
        URI u = URI.create(url("m1"));
        ManagedChannel ch = NettyChannelBuilder.forAddress(u.getHost(), u.getPort()).usePlaintext().build();
        try {
            return ClusterGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .memberList(MemberListRequest.getDefaultInstance()).getMembersList();
        } finally {
            ch.shutdownNow();
        }
    }
}
