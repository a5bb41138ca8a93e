package io.etcdj.embedded;

import static io.etcdj.embedded.EtcdClusterTest.bytes;
import static io.etcdj.embedded.EtcdClusterTest.client;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import io.etcdj.harness.Eventually;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clusters started in this JVM are as independent as two clusters of processes: each member
 * counts on its own /metrics only what was asked of it, a failpoint given to one member fires
 * there alone, and each cluster's log lines go to its own sink.
 */
class TwoClustersInOneJvmTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void putsOnOneClusterAreCountedOnItsMembersOnly() throws Exception {
        try (EtcdCluster a = EtcdCluster.builder().name("metrics-a").members(3).build().start();
                EtcdCluster b = EtcdCluster.builder().name("metrics-b").build().start();
                Client ca = client(List.of(a.member(1).clientEndpoint()))) {
            a.waitForLeader(Duration.ofSeconds(15));
            for (int i = 0; i < 3; i++) {
                ca.getKVClient().put(bytes("k" + i), bytes("v")).get(10, TimeUnit.SECONDS);
            }
            assertEquals(3, sample(a.member(1), "etcd_mvcc_put_total"), "the member the puts were asked of");
            assertEquals(0, sample(a.member(0), "etcd_mvcc_put_total"), "another member of the same cluster");
            assertEquals(0, sample(b.member(0), "etcd_mvcc_put_total"), "the other cluster's member");
            // the puts were committed in cluster a: its member counts them, cluster b's did not see them
            double committedA = sample(a.member(1), "etcd_server_proposals_committed_total");
            double committedB = sample(b.member(0), "etcd_server_proposals_committed_total");
            assertTrue(committedA >= committedB + 3, "a: " + committedA + ", b: " + committedB);
            assertEquals(1, sample(b.member(0), "etcd_server_is_leader"), "b's only member leads b");
            assertEquals(1, a.members().stream().mapToDouble(m -> sample(m, "etcd_server_is_leader")).sum(), "one leader in a");
        }
    }

    @Test
    void aFailpointGivenToOneMemberFiresThereAlone() throws Exception {
        // a defragment of a's member holds its backend for 4 s before copying it; b's has no failpoint
        try (EtcdCluster a = EtcdCluster.builder().name("failpoints-a").failpoints("member0", "defragBeforeCopy=sleep(4000)")
                        .build().start();
                EtcdCluster b = EtcdCluster.builder().name("failpoints-b").build().start();
                Client ca = client(a.clientEndpoints()); Client cb = client(b.clientEndpoints())) {
            long started = System.nanoTime();
            CompletableFuture<?> slow = ca.getMaintenanceClient().defragmentMember(a.member(0).clientEndpoint().toString());
            cb.getMaintenanceClient().defragmentMember(b.member(0).clientEndpoint().toString()).get(30, TimeUnit.SECONDS);
            assertFalse(slow.isDone(), "b's defragment finished while a's was held by a's failpoint");
            slow.get(30, TimeUnit.SECONDS);
            assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(4000), "a's defragment slept in its failpoint");
        }
    }

    @Test
    void eachClustersLogLinesGoToItsOwnSink(@TempDir Path tmp) throws Exception {
        List<String> alphaLines = new CopyOnWriteArrayList<>();
        Path betaLog = tmp.resolve("beta.log");
        try (EtcdCluster a = EtcdCluster.builder().name("logs-a").memberNamePrefix("alpha").members(3).logTo(alphaLines::add)
                        .build().start();
                EtcdCluster b = EtcdCluster.builder().name("logs-b").memberNamePrefix("beta").logFile(betaLog).build().start()) {
            a.waitForLeader(Duration.ofSeconds(15));
            List<String> betaLines = Files.readAllLines(betaLog);
            for (String member : List.of("alpha0", "alpha1", "alpha2")) {
                assertTrue(alphaLines.stream().anyMatch(l -> l.contains("\"msg\":\"starting an etcd server\"")
                        && l.contains("\"name\":\"" + member + "\"")), member + " started in a's sink");
            }
            assertTrue(betaLines.stream().anyMatch(l -> l.contains("\"msg\":\"starting an etcd server\"")
                    && l.contains("\"name\":\"beta0\"")), "beta0 started in b's file:\n" + betaLines);
            assertTrue(betaLines.stream().anyMatch(l -> l.contains("\"msg\":\"ready to serve client requests\"")), "b's file");
            assertTrue(alphaLines.stream().noneMatch(l -> l.contains("beta")), "none of b's lines in a's sink");
            assertTrue(betaLines.stream().noneMatch(l -> l.contains("alpha")), "none of a's lines in b's file");
            for (String line : alphaLines) {
                assertTrue(line.startsWith("{\"level\":\"") && line.endsWith("}"), "etcd's JSON lines: " + line);
            }
        }
    }

    /** A member's threads and event loops are its own: closing the clusters ends them all. */
    @Test
    void closedClustersLeaveNoThreadOfTheirMembersBehind() throws Exception {
        List<String> memberThreads = List.of("raft", "apply", "member-io", "member-accept");
        try (EtcdCluster a = EtcdCluster.builder().name("threads-a").members(3).build().start();
                EtcdCluster b = EtcdCluster.builder().name("threads-b").build().start()) {
            a.waitForLeader(Duration.ofSeconds(15));
            assertTrue(threadsNamed(memberThreads).size() >= 4 * 2, "raft and apply threads of 4 members: " + threadsNamed(memberThreads));
        }
        assertEquals(List.of(), Eventually.poll(Duration.ofSeconds(20), Duration.ofMillis(50),
                () -> threadsNamed(memberThreads), List::isEmpty), "the members' threads end with their clusters");
    }

    private static List<String> threadsNamed(List<String> prefixes) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> prefixes.stream().anyMatch(p -> n.equals(p) || n.startsWith(p + "-"))).sorted().toList();
    }

    @Test
    void failpointsAreCheckedWhenTheClusterIsBuilt() {
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> EtcdCluster.builder().failpoints("member0", "raftAfterSave=panic"));
        assertEquals("malformed failpoint 'raftAfterSave=panic': want name=sleep(millis) or name=crash", malformed.getMessage());
        IllegalArgumentException stranger = assertThrows(IllegalArgumentException.class,
                () -> EtcdCluster.builder().failpoints("member3", "raftAfterSave=sleep(1)").build());
        assertTrue(stranger.getMessage().contains("member3"), stranger.getMessage());
        IllegalArgumentException crash = assertThrows(IllegalArgumentException.class,
                () -> EtcdCluster.builder().failpoints("member0", "raftAfterSave=crash").build());
        assertTrue(crash.getMessage().contains("Mode.CHILD_PROCESS"), crash.getMessage());
    }

    /** The value of the unlabelled series {@code name} on the member's /metrics. */
    static double sample(EtcdMember member, String name) {
        try {
            String text = HTTP.send(HttpRequest.newBuilder(URI.create(member.clientEndpoint() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            List<String> lines = text.lines().filter(l -> l.startsWith(name + " ")).toList();
            assertEquals(1, lines.size(), name + " on " + member + ":\n" + text);
            return Double.parseDouble(lines.get(0).substring(name.length() + 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
