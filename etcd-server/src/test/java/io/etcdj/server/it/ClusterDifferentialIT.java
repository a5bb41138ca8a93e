package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real etcdctl's member commands against a real etcd 3.4 cluster and against ours: the same
 * outputs, errors and exit codes, with member IDs and ports normalised (they differ by design:
 * IDs derive from the peer URLs, and each cluster has its own free ports).
 */
class ClusterDifferentialIT {
    private static ProcessCluster real;
    private static ProcessCluster ours;

    @BeforeAll
    static void startBoth() throws Exception {
        real = ProcessCluster.start(EtcdProcess.Binary.REAL_ETCD, 3);
        ours = ProcessCluster.start(EtcdProcess.Binary.OURS, 3);
    }

    @AfterAll
    static void stopBoth() {
        if (real != null) {
            real.close();
        }
        if (ours != null) {
            ours.close();
        }
    }

    private static String normalise(String s, ProcessCluster c) {
        // IDs print as hex without leading zeros, so 10 to 16 digits
        String out = s.replaceAll("\\b[0-9a-f]{10,16}\\b", "<id>");
        for (EtcdProcess m : c.members()) {
            out = out.replace(m.endpoint().split(":")[1], "<client-" + m.name() + ">")
                    .replace(m.peerUrl().split(":")[2], "<peer-" + m.name() + ">");
        }
        return out;
    }

    private record Outcome(int exit, String stdout, String stderr) {
    }

    private static Outcome run(ProcessCluster c, List<String> args) {
        List<String> resolved = new ArrayList<>();
        for (String a : args) {
            resolved.add(a.replace("$PEER1", c.member(0).peerUrl()).replace("$VOTER", memberId(c, 1)));
        }
        Etcdctl.Result r = new Etcdctl(c.endpoints()).run(resolved.toArray(new String[0]));
        String err = r.stderr().lines().filter(l -> !l.startsWith("{")).reduce("", (a, b) -> a + b + "\n");
        return new Outcome(r.exitCode(), normalise(r.stdout(), c), normalise(err, c));
    }

    private static String memberId(ProcessCluster c, int i) {
        String json = new Etcdctl(c.member(i).endpoint()).run("endpoint", "status", "-w", "json").ok().stdout();
        Matcher m = Pattern.compile("\"member_id\":(\\d+)").matcher(json);
        return m.find() ? Long.toHexString(Long.parseUnsignedLong(m.group(1))) : "?";
    }

    /**
     * etcd 3.4 refuses reconfiguration until its leader has been connected to a quorum for five
     * seconds ("unhealthy cluster"); ask it again until it answers on the merits.
     */
    private static Outcome runSettled(ProcessCluster c, List<String> args) {
        try {
            return Eventually.poll(Duration.ofSeconds(20), Duration.ofMillis(500), () -> run(c, args),
                    o -> !o.stderr().contains("unhealthy cluster"));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void same(String... args) {
        Outcome a = runSettled(real, List.of(args));
        Outcome b = run(ours, List.of(args));
        assertEquals(a, b, "etcdctl " + String.join(" ", args));
    }

    /** Members are listed in ID order, and IDs differ with the ports: compare the lines as a set. */
    private static void sameLines(String... args) {
        Outcome a = run(real, List.of(args));
        Outcome b = run(ours, List.of(args));
        assertEquals(a.exit(), b.exit());
        // table cells are padded to the widest ID, whose length varies with the ID itself
        assertEquals(a.stdout().replaceAll(" +", " ").lines().sorted().toList(),
                b.stdout().replaceAll(" +", " ").lines().sorted().toList(), String.join(" ", args));
        assertEquals(a.stderr(), b.stderr());
    }

    /**
     * etcd probes each peer and keeps the round trips in etcd_network_peer_round_trip_time_seconds,
     * one histogram per peer (label To): ours has the family with the same type, buckets and
     * labels; and each of our members logged etcd's start-up election tick advance once both its
     * peers answered (--initial-election-tick-advance, on by default).
     */
    @Test
    void peerRoundTripHistogramAndTheStartUpTickAdvance() throws Exception {
        String family = "etcd_network_peer_round_trip_time_seconds";
        String realMetrics = metricsWith(real.member(0), family + "_count{");
        String ourMetrics = metricsWith(ours.member(0), family + "_count{");
        assertEquals(typeLine(realMetrics, family), typeLine(ourMetrics, family));
        assertEquals(buckets(realMetrics, family), buckets(ourMetrics, family));
        assertEquals(2, ourMetrics.lines().filter(l -> l.startsWith(family + "_count{To=\"")).count(), "one series per peer");
        for (EtcdProcess m : ours.members()) {
            String log = Files.readString(m.logFile());
            assertTrue(log.contains("\"msg\":\"initialized peer connections; fast-forwarding election ticks\""), m.name() + ": " + log);
        }
    }

    /** /metrics once it has a line starting with {@code prefix} (etcd's first probe comes after 4 s). */
    private static String metricsWith(EtcdProcess m, String prefix) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        return Eventually.poll(Duration.ofSeconds(20), Duration.ofMillis(250),
                () -> http.send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + "/metrics"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body(),
                body -> body.lines().anyMatch(l -> l.startsWith(prefix)));
    }

    private static String typeLine(String body, String family) {
        return body.lines().filter(l -> l.startsWith("# TYPE " + family + " ")).findFirst().orElse("(no " + family + ")");
    }

    /** The bucket bounds of one series of the family, as printed. */
    private static List<String> buckets(String body, String family) {
        Matcher first = Pattern.compile(Pattern.quote(family) + "_bucket\\{To=\"([0-9a-f]+)\"").matcher(body);
        if (!first.find()) {
            return List.of();
        }
        String to = first.group(1);
        List<String> out = new ArrayList<>();
        Matcher le = Pattern.compile(Pattern.quote(family) + "_bucket\\{To=\"" + to + "\",le=\"([^\"]+)\"").matcher(body);
        while (le.find()) {
            out.add(le.group(1));
        }
        return out;
    }

    @Test
    void memberListInEveryFormatThatHasNoRevisionOrTerm() {
        sameLines("member", "list");
        sameLines("member", "list", "-w", "table");
    }

    @Test
    void reconfigurationErrors() {
        same("member", "add", "dup", "--peer-urls=$PEER1");
        same("member", "remove", "1234");
        same("member", "update", "1234", "--peer-urls=http://127.0.0.1:1");
        same("member", "promote", "$VOTER");
        same("member", "promote", "1234");
    }
}
