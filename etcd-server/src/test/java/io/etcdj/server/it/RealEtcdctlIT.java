package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.TempDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real etcdctl (3.4) against our server: the output a user sees must be etcd's. One server for the
 * class; every test writes under its own key prefix. Only {@link #fromKeyReachesTheEndOfTheKeyspace} uses
 * keys starting with '~', which sort after every other test's keys.
 */
class RealEtcdctlIT {
    @RegisterExtension
    static final EtcdClusterExtension CLUSTER = EtcdClusterExtension.of(EtcdProcess.ours());
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Etcdctl ctl = new Etcdctl(CLUSTER.endpoint());

    private Etcdctl.Result ok(String... args) {
        return ctl.run(args).ok();
    }

    /** Puts and returns the revision the put created. */
    private long put(String key, String value) throws Exception {
        return JSON.readTree(ok("put", key, value, "-w", "json").stdout()).at("/header/revision").asLong();
    }

    private long currentRevision() throws Exception {
        return JSON.readTree(ok("get", "any-key", "-w", "json").stdout()).at("/header/revision").asLong();
    }

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void putPrintsOkAndGetPrintsKeyThenValue() {
        assertEquals("OK\n", ok("put", "simple/k", "hello world", "-w", "simple").stdout());
        assertEquals(lines("simple/k", "hello world"), ok("get", "simple/k").stdout());
        assertEquals("", ok("get", "simple/missing").stdout());
        assertEquals("OK\n", ctl.runWithInput("from stdin\n", "put", "simple/stdin").ok().stdout());
        assertEquals(lines("simple/stdin", "from stdin", ""), ok("get", "simple/stdin").stdout(), "the newline is part of the value");
    }

    @Test
    void getWithPrefixLimitAndPrintValueOnly() throws Exception {
        put("pfx/a", "1");
        put("pfx/b", "2");
        put("pfx/d/x", "4");
        put("pfx/d/y", "5");
        put("pfx/dz", "6");
        assertEquals(lines("pfx/d/x", "4", "pfx/d/y", "5"), ok("get", "pfx/d/", "--prefix").stdout());
        assertEquals(lines("pfx/a", "1", "pfx/b", "2"), ok("get", "pfx/", "--prefix", "--limit", "2").stdout());
        assertEquals(lines("4", "5"), ok("get", "pfx/d/", "--prefix", "--print-value-only").stdout());
        assertEquals(lines("pfx/a", "", "pfx/b", "", "pfx/d/x", "", "pfx/d/y", "", "pfx/dz", ""),
                ok("get", "pfx/", "--prefix", "--keys-only").stdout());
        assertEquals(lines("pfx/b", "2", "pfx/d/x", "4"), ok("get", "pfx/b", "pfx/d/y").stdout(), "explicit range end");
        assertEquals(lines("pfx/a", "1"), ok("get", "pfx/a", "--consistency", "s").stdout());
    }

    @Test
    void fromKeyReachesTheEndOfTheKeyspace() {
        ok("put", "~fk/a", "1");
        ok("put", "~fk/b", "2");
        ok("put", "~fk/c", "3");
        assertEquals(lines("~fk/b", "2", "~fk/c", "3"), ok("get", "~fk/b", "--from-key").stdout());
        assertEquals(lines("~fk/a", "1"), ok("get", "~fk/a", "--from-key", "--limit", "1").stdout());
        assertEquals(lines("2", "~fk/b", "2", "~fk/c", "3"), ok("del", "~fk/b", "--from-key", "--prev-kv").stdout());
        assertEquals(lines("~fk/a", "1"), ok("get", "~fk/", "--from-key").stdout());
    }

    @Test
    void sortByEveryTargetInBothOrders() throws Exception {
        // creation order c, a, b; then a is rewritten twice and c once, so version and mod order differ
        put("sort/c", "x");
        put("sort/a", "z");
        put("sort/b", "y");
        put("sort/a", "z2");
        put("sort/a", "w");
        put("sort/c", "v");
        assertEquals(lines("sort/c", "v", "sort/b", "y", "sort/a", "w"),
                ok("get", "sort/", "--prefix", "--order", "DESCEND").stdout());
        assertEquals(lines("sort/c", "v", "sort/a", "w", "sort/b", "y"),
                ok("get", "sort/", "--prefix", "--sort-by", "CREATE").stdout());
        assertEquals(lines("sort/c", "v", "sort/a", "w", "sort/b", "y"),
                ok("get", "sort/", "--prefix", "--sort-by", "MODIFY", "--order", "DESCEND").stdout());
        assertEquals(lines("sort/b", "y", "sort/c", "v", "sort/a", "w"),
                ok("get", "sort/", "--prefix", "--sort-by", "VERSION").stdout());
        assertEquals(lines("sort/b", "y", "sort/a", "w", "sort/c", "v"),
                ok("get", "sort/", "--prefix", "--sort-by", "VALUE", "--order", "DESCEND").stdout());
        assertEquals(lines("sort/a", "w", "sort/b", "y", "sort/c", "v"),
                ok("get", "sort/", "--prefix", "--sort-by", "KEY", "--order", "ASCEND").stdout());
    }

    @Test
    void getAtAnOlderRevisionThenCompactionMakesItUnreadable() throws Exception {
        long first = put("rev/k", "v1");
        long second = put("rev/k", "v2");
        assertEquals(lines("rev/k", "v1"), ok("get", "rev/k", "--rev", Long.toString(first)).stdout());
        assertEquals(lines("rev/k", "v2"), ok("get", "rev/k").stdout());

        assertEquals("compacted revision " + second + "\n", ok("compaction", Long.toString(second)).stdout());
        Etcdctl.Result compacted = ctl.run("get", "rev/k", "--rev", Long.toString(first));
        assertEquals(1, compacted.exitCode(), compacted.toString());
        assertTrue(compacted.stderr().contains("Error: etcdserver: mvcc: required revision has been compacted"),
                compacted.toString());
        Etcdctl.Result again = ctl.run("compaction", Long.toString(second));
        assertEquals(1, again.exitCode(), again.toString());
        assertTrue(again.stderr().contains("Error: etcdserver: mvcc: required revision has been compacted"), again.toString());

        Etcdctl.Result future = ctl.run("get", "rev/k", "--rev", Long.toString(second + 100_000));
        assertEquals(1, future.exitCode(), future.toString());
        assertTrue(future.stderr().contains("Error: etcdserver: mvcc: required revision is a future revision"), future.toString());
    }

    @Test
    void jsonOutputCarriesHeaderAndBase64Kvs() throws Exception {
        long rev = put("json/k", "v");
        JsonNode get = JSON.readTree(ok("get", "json/k", "-w", "json").stdout());
        assertNotEquals(0, get.at("/header/cluster_id").asLong());
        assertNotEquals(0, get.at("/header/member_id").asLong());
        assertTrue(get.at("/header/revision").asLong() >= rev);
        assertTrue(get.at("/header/raft_term").asLong() >= 1);
        JsonNode kv = get.at("/kvs/0");
        assertEquals(b64("json/k"), kv.get("key").asText());
        assertEquals(b64("v"), kv.get("value").asText());
        assertEquals(rev, kv.get("create_revision").asLong());
        assertEquals(rev, kv.get("mod_revision").asLong());
        assertEquals(1, kv.get("version").asLong());
        assertEquals(1, get.get("count").asLong());
        assertTrue(get.path("more").isMissingNode(), "false is omitted, as in etcd: " + get);
    }

    @Test
    void fieldsOutputShowsMoreAndCount() throws Exception {
        long rev = put("fields/a", "1");
        put("fields/b", "2");
        String out = ok("get", "fields/", "--prefix", "--limit", "1", "-w", "fields").stdout();
        List<String> body = out.lines().skip(4).toList(); // header lines carry ids and the revision
        assertEquals(List.of("\"Key\" : \"fields/a\"", "\"CreateRevision\" : " + rev, "\"ModRevision\" : " + rev,
                "\"Version\" : 1", "\"Value\" : \"1\"", "\"Lease\" : 0", "\"More\" : true", "\"Count\" : 2"), body);
        assertTrue(out.startsWith("\"ClusterID\" : "), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("\"RaftTerm\" : ")), out);
    }

    @Test
    void putAndDeleteWithPrevKv() {
        ok("put", "prev/k", "old");
        assertEquals(lines("OK", "prev/k", "old"), ok("put", "prev/k", "new", "--prev-kv").stdout());
        assertEquals("OK\n", ok("put", "prev/fresh", "x", "--prev-kv").stdout());
        assertEquals(lines("1", "prev/k", "new"), ok("del", "prev/k", "--prev-kv").stdout());
        assertEquals("0\n", ok("del", "prev/k").stdout());
        ok("put", "prev/d/1", "a");
        ok("put", "prev/d/2", "b");
        assertEquals("2\n", ok("del", "prev/d/", "--prefix").stdout());
        assertEquals("", ok("get", "prev/d/", "--prefix").stdout());
    }

    @Test
    void interactiveTxnTakesTheBranchTheComparesChoose() {
        ok("put", "txn/k1", "v1");
        ok("put", "txn/k2", "v2");
        String success = "value(\"txn/k1\") = \"v1\"\n\nput txn/k1 yes\nget txn/k2\n\nput txn/k1 no\n\n";
        Etcdctl.Result r = ctl.runWithInput(success, "txn", "-i").ok();
        assertEquals(lines("compares:", "success requests (get, put, del):", "failure requests (get, put, del):",
                "SUCCESS", "", "OK", "", "txn/k2", "v2"), r.stdout());
        assertEquals(lines("txn/k1", "yes"), ok("get", "txn/k1").stdout());

        String failure = "mod(\"txn/k1\") < \"2\"\nversion(\"txn/k2\") = \"1\"\n\nput txn/k1 never\n\n"
                + "get txn/k2\ndel txn/k1 --prev-kv\n\n";
        assertEquals(lines("FAILURE", "", "txn/k2", "v2", "", "1", "txn/k1", "yes"),
                ctl.runWithInput(failure, "txn").ok().stdout());
        assertEquals("", ok("get", "txn/k1").stdout());

        Etcdctl.Result bad = ctl.runWithInput("bad\n", "txn");
        assertEquals(3, bad.exitCode(), bad.toString());
        assertEquals("Error: malformed comparison: bad\n", bad.stderr());
    }

    @Test
    void watchPrefixFromHistoryWithPrevKv() throws Exception {
        long start = put("watch/a", "1");
        put("watch/a", "2");
        put("watch/b", "3");
        ok("del", "watch/a");
        put("watchother", "not in the prefix");
        try (Etcdctl.Background watch = ctl.background("watch", "watch/", "--prefix", "--rev", Long.toString(start), "--prev-kv")) {
            assertEquals(List.of("PUT", "watch/a", "1",
                    "PUT", "watch/a", "1", "watch/a", "2",
                    "PUT", "watch/b", "3",
                    "DELETE", "watch/a", "2", "watch/a", ""), watch.awaitLines(16, 20_000));
            put("watch/c", "live");
            assertEquals(List.of("PUT", "watch/c", "live"), watch.awaitLines(3, 20_000), "live event after history");
        }
    }

    @Test
    void watchFromTheNextRevisionSeesOnlyNewEvents() throws Exception {
        put("watchlive/old", "before");
        long next = currentRevision() + 1;
        try (Etcdctl.Background watch = ctl.background("watch", "watchlive/k", "--rev", Long.toString(next), "-w", "json")) {
            long rev = put("watchlive/k", "v");
            JsonNode event = JSON.readTree(watch.awaitLines(1, 20_000).get(0));
            assertEquals(rev, event.at("/Header/revision").asLong());
            assertEquals(b64("watchlive/k"), event.at("/Events/0/kv/key").asText());
            assertEquals(rev, event.at("/Events/0/kv/mod_revision").asLong());
            assertTrue(event.at("/Events/0/type").isMissingNode(), "PUT is the zero value, omitted: " + event);
        }
    }

    @Test
    void leaseLifecycle() throws Exception {
        String granted = ok("lease", "grant", "600").stdout();
        Matcher m = Pattern.compile("lease ([0-9a-f]+) granted with TTL\\(600s\\)\n").matcher(granted);
        assertTrue(m.matches(), granted);
        String id = m.group(1);
        assertEquals("OK\n", ok("put", "lease/k1", "v", "--lease", id).stdout());
        ok("put", "lease/k2", "v", "--lease", id);

        String list = ok("lease", "list").stdout();
        assertTrue(list.startsWith("found "), list);
        assertTrue(list.lines().anyMatch(id::equals), list);

        String ttl = ok("lease", "timetolive", id, "--keys").stdout();
        assertTrue(ttl.matches("lease " + id + " granted with TTL\\(600s\\), remaining\\((59\\d|600)s\\), "
                + "attached keys\\(\\[lease/k1 lease/k2\\]\\)\n"), ttl);
        assertEquals("lease " + id + " keepalived with TTL(600)\n", ok("lease", "keep-alive", "--once", id).stdout());
        JsonNode ttlJson = JSON.readTree(ok("lease", "timetolive", id, "-w", "json").stdout());
        assertEquals(600, ttlJson.get("granted-ttl").asLong());
        assertEquals(Long.parseLong(id, 16), ttlJson.get("id").asLong());

        assertEquals("lease " + id + " revoked\n", ok("lease", "revoke", id).stdout());
        assertEquals("", ok("get", "lease/", "--prefix").stdout(), "revoking deletes the attached keys");
        assertEquals("lease " + id + " already expired\n", ok("lease", "timetolive", id).stdout());

        Etcdctl.Result unknown = ctl.run("lease", "revoke", "1234abcd");
        assertEquals(1, unknown.exitCode(), unknown.toString());
        assertTrue(unknown.stderr().endsWith("Error: failed to revoke lease (etcdserver: requested lease not found)\n"),
                unknown.toString());
        Etcdctl.Result putUnknown = ctl.run("put", "lease/x", "y", "--lease", "1234abcd");
        assertEquals(1, putUnknown.exitCode(), putUnknown.toString());
        assertTrue(putUnknown.stderr().contains("Error: etcdserver: requested lease not found"), putUnknown.toString());

        // etcd's MaxLeaseTTL, 9000000000 s, is granted; one second more is refused (etcd 3.4's exit code and text)
        assertTrue(ok("lease", "grant", "9000000000").stdout().endsWith(" granted with TTL(9000000000s)\n"));
        Etcdctl.Result tooLong = ctl.run("lease", "grant", "9000000001");
        assertEquals(1, tooLong.exitCode(), tooLong.toString());
        assertTrue(tooLong.stderr().endsWith("Error: failed to grant lease (etcdserver: too large lease TTL)\n"),
                tooLong.toString());
    }

    @Test
    void leaseKeepAliveKeepsRenewing() throws Exception {
        String granted = ok("lease", "grant", "30").stdout();
        String id = granted.split(" ")[1];
        try (Etcdctl.Background keepAlive = ctl.background("lease", "keep-alive", id)) {
            assertEquals(List.of("lease " + id + " keepalived with TTL(30)"), keepAlive.awaitLines(1, 20_000));
            assertTrue(keepAlive.isAlive(), "keep-alive runs until stopped");
        }
        ok("lease", "revoke", id);
    }

    @Test
    void endpointStatusAndHealth() throws Exception {
        String health = ok("endpoint", "health").stderr(); // etcdctl 3.4 prints the verdict on stderr
        assertTrue(health.startsWith(CLUSTER.endpoint() + " is healthy: successfully committed proposal: took = "), health);
        JsonNode healthJson = JSON.readTree(ok("endpoint", "health", "-w", "json").stdout());
        assertTrue(healthJson.at("/0/health").asBoolean(), healthJson.toString());

        JsonNode status = JSON.readTree(ok("endpoint", "status", "-w", "json").stdout()).get(0);
        assertEquals(CLUSTER.endpoint(), status.get("Endpoint").asText());
        JsonNode s = status.get("Status");
        long memberId = s.at("/header/member_id").asLong();
        assertNotEquals(0, memberId);
        assertEquals(memberId, s.get("leader").asLong(), "a single member leads itself");
        assertTrue(s.get("version").asText().matches("3\\.\\d+\\.\\d+"), s.toString());
        assertTrue(s.get("dbSize").asLong() > 0, s.toString());
        assertTrue(s.get("raftIndex").asLong() >= s.get("raftAppliedIndex").asLong() - 0, s.toString());
        assertTrue(s.get("raftTerm").asLong() >= 1, s.toString());

        String table = ok("endpoint", "status").stdout();
        assertTrue(table.startsWith(CLUSTER.endpoint() + ", " + Long.toHexString(memberId) + ", "), table);
        assertTrue(table.contains(", true, false, "), "is leader, not a learner: " + table);
    }

    /**
     * etcdctl 3.4 checks what it received like etcd does: the backend file followed by the SHA-256
     * of it; the file is etcd's own format, which etcdctl's {@code snapshot status} reads (a bbolt
     * file it checks page by page before it answers).
     */
    @Test
    void snapshotSaveWritesTheBackendWithItsChecksum() throws Exception {
        ok("put", "snap/k", "v");
        Path dir = Files.createTempDirectory("etcdctl-snapshot-");
        try {
            Path file = dir.resolve("backup.db");
            Etcdctl.Result save = ok("snapshot", "save", file.toString());
            assertEquals("Snapshot saved at " + file + "\n", save.stdout(), save.toString());
            byte[] saved = Files.readAllBytes(file);
            assertTrue(saved.length > 32, "snapshot of " + saved.length + " bytes");
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(Arrays.copyOf(saved, saved.length - 32));
            assertEquals(HexFormat.of().formatHex(digest),
                    HexFormat.of().formatHex(Arrays.copyOfRange(saved, saved.length - 32, saved.length)),
                    "the last 32 bytes are the SHA-256 of the rest");
            long putAt = JSON.readTree(ok("get", "snap/k", "-w", "json").stdout()).at("/kvs/0/mod_revision").asLong();
            JsonNode status = JSON.readTree(ok("snapshot", "status", file.toString(), "-w", "json").stdout());
            assertTrue(status.get("revision").asLong() >= putAt, status.toString());
            assertTrue(status.get("totalKey").asLong() >= 1, status.toString());
        } finally {
            TempDirs.delete(dir);
        }
    }

    @Test
    void memberListShowsTheOneMember() throws Exception {
        String out = ok("member", "list").stdout();
        JsonNode json = JSON.readTree(ok("member", "list", "-w", "json").stdout());
        JsonNode member = json.at("/members/0");
        assertEquals(1, json.get("members").size());
        assertEquals("it", member.get("name").asText());
        assertEquals(CLUSTER.member(0).clientUrl(), member.at("/clientURLs/0").asText());
        String peerUrl = member.at("/peerURLs/0").asText();
        assertEquals(Long.toHexString(member.get("ID").asLong()) + ", started, it, " + peerUrl + ", "
                + CLUSTER.member(0).clientUrl() + ", false\n", out);
    }
}
