package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The space quota, scenario for scenario against the real etcd 3.4: writes past
 * --quota-backend-bytes fail with "database space exceeded" and raise NOSPACE, reads and
 * deletes still work, /health reports the alarm, and compaction, defragmentation and
 * {@code alarm disarm} bring writes back.
 */
class QuotaDifferentialIT {
    @Test
    void writesPastTheQuotaRaiseNospaceAndCompactDefragDisarmRecover() throws Exception {
        compare(1 << 20, "x".repeat(64 * 1024));
    }

    /**
     * etcd's own e2e alarm test (TestCtlV3Alarm): a quota of 13 pages, "the boltdb minimum working
     * set is six pages"; a small put must still work on a fresh member, then page-sized values fill
     * it. Our LMDB file starts at 19 pages (7 of them holding data): the quota counts the pages in use.
     */
    @Test
    void aQuotaOfThirteenPagesStillTakesSmallPutsOnAFreshMember() throws Exception {
        compare(13 * 4096, "b".repeat(4096));
    }

    private static void compare(int quota, String value) throws Exception {
        List<String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd("--quota-backend-bytes=" + quota)) {
            m.start();
            real = scenario(m, value);
        }
        List<String> ours;
        try (EtcdProcess m = EtcdProcess.ours("--quota-backend-bytes=" + quota)) {
            m.start();
            ours = scenario(m, value);
        }
        System.out.println("quota scenario (" + quota + " bytes), etcd 3.4 and ours:\n" + String.join("\n", real));
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    /** What a user sees at each step, with member IDs and timings taken out. */
    private static List<String> scenario(EtcdProcess m, String value) throws Exception {
        Etcdctl ctl = new Etcdctl(m.endpoint());
        List<String> seen = new ArrayList<>();
        seen.add("first small put: " + ctl.run("put", "quota/first", "a".repeat(64)).ok().stdout());
        Etcdctl.Result put = null;
        int puts = 0;
        while (puts < 300) {
            put = ctl.runWithInput(value, "put", "quota/k");
            if (put.exitCode() != 0) {
                break;
            }
            puts++;
        }
        assertTrue(puts < 300, "writes stopped after " + puts + " puts on " + m.describe());
        seen.add("put past the quota: exit " + put.exitCode() + " " + lastLine(put.stderr()));
        Etcdctl.Result small = ctl.run("put", "quota/other", "v");
        seen.add("small put: exit " + small.exitCode() + " " + lastLine(small.stderr()));
        Etcdctl.Result txn = ctl.runWithInput("\n\nput quota/t v\n\n", "txn");
        seen.add("txn put: exit " + txn.exitCode() + " " + lastLine(txn.stderr()));
        Etcdctl.Result lease = ctl.run("lease", "grant", "100");
        seen.add("lease grant: exit " + lease.exitCode() + " " + lastLine(lease.stderr()));
        seen.add("alarm list: " + ctl.run("alarm", "list").ok().stdout().replaceAll("memberID:\\d+", "memberID:<id>"));
        seen.add("get: " + ctl.run("get", "quota/k", "--print-value-only").ok().stdout().length());
        seen.add("delete: " + ctl.run("del", "quota/none").ok().stdout());
        seen.add("/health: " + healthField(m));
        String rev = ctl.run("get", "quota/k", "-w", "fields").ok().stdout().lines()
                .filter(l -> l.startsWith("\"Revision\"")).findFirst().orElseThrow().replaceAll("\\D", "");
        // --physical: the answer waits until the old revisions are gone from the backend (etcd's and
        // ours delete them in the background), so the defrag after it frees their pages on both
        seen.add("compact: " + ctl.run("compact", rev, "--physical").ok().stdout().replace(rev, "<rev>"));
        seen.add("defrag: exit " + ctl.run("defrag").exitCode());
        seen.add("still refused before disarm: exit " + ctl.run("put", "quota/other", "v").exitCode());
        seen.add("disarm: " + ctl.run("alarm", "disarm").ok().stdout().replaceAll("memberID:\\d+", "memberID:<id>"));
        seen.add("put after disarm: " + ctl.run("put", "quota/other", "v").ok().stdout());
        seen.add("alarm list after: [" + ctl.run("alarm", "list").ok().stdout() + "]");
        seen.add("/health after: " + healthField(m));
        return seen;
    }

    private static String healthField(EtcdProcess m) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + "/health"))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body().replaceAll(".*\"health\":\"(\\w+)\".*", "health=$1").trim();
    }

    private static String lastLine(String s) {
        List<String> lines = s.lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
