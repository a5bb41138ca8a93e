package io.etcdj.etcdutl;

import static io.etcdj.etcdutl.ServedData.assertCompactedBelow;
import static io.etcdj.etcdutl.ServedData.assertSameHistory;
import static io.etcdj.etcdutl.ServedData.history;
import static io.etcdj.etcdutl.ServedData.keySet;
import static io.etcdj.etcdutl.ServedData.revision;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.etcdutl.ServedData.History;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Resources;
import io.etcdj.harness.ServerCommand;
import io.etcdj.harness.TempDirs;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.bbolt.BboltReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Migration both ways against the real etcd 3.4: data written to a real etcd with the real
 * etcdctl (puts, overwrites, deletes, a compaction, leases, users and roles) is saved with
 * {@code etcdctl snapshot save}, restored by bin/etcdutl into our member, which must serve the
 * same {@code get --rev} results and leases; then our member's data, with more writes, is exported
 * by bin/etcdutl and restored by the real etcdctl into a real etcd that must serve it all the same.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EtcdSnapshotIT {
    private static final ObjectMapper JSON = ServedData.JSON;

    /** Every member and the temp dir, removed after the class however it ends; log tails on a failure. */
    @RegisterExtension
    static final Resources RES = new Resources();

    private Path home;
    private Path snapshot;
    private Path memberDb;
    /** What the real source served: {@code get "" --prefix -w json} kvs per revision from the compaction on. */
    private History source;

    @BeforeAll
    void writeToRealEtcd() throws Exception {
        home = RES.dir("etcdutl-etcd-it-");
        EtcdProcess real = RES.track(EtcdProcess.of(ServerCommand.realEtcd(), "real", home));
        real.start();
        String ep = real.endpoint();
        String lease1 = Tool.etcdctl(ep, "lease", "grant", "3600").ok().out().split(" ")[1];
        Tool.etcdctl(ep, "lease", "grant", "7200").ok();
        Tool.etcdctl(ep, "put", "k1", "v1").ok();
        Tool.etcdctl(ep, "put", "k2", "v2").ok();
        Tool.etcdctl(ep, "put", "k3", "v3", "--lease=" + lease1).ok();
        Tool.etcdctl(ep, "put", "k1", "v1-overwritten").ok();
        Tool.etcdctl(ep, "del", "k2").ok();
        // enough keys and a value large enough that the key bucket spans several pages and an overflow page
        for (int batch = 0; batch < 3; batch++) {
            StringBuilder ops = new StringBuilder("\n");
            for (int i = 0; i < 100; i++) {
                ops.append("put many/").append(batch).append('/').append(i).append(' ').append("v".repeat(100)).append('\n');
            }
            ops.append("\n\n");
            Tool.etcdctlWithInput(ep, ops.toString(), "txn").ok();
        }
        Tool.etcdctl(ep, "put", "big", "b".repeat(10_000)).ok();
        long compactAt = revision(ep) - 1;
        Tool.etcdctl(ep, "compact", Long.toString(compactAt)).ok();
        Tool.etcdctl(ep, "put", "k4", "after-compaction", "--lease=" + lease1).ok();
        Tool.etcdctl(ep, "del", "--prefix", "many/1/").ok();
        Tool.etcdctl(ep, "put", "k1", "third").ok();
        Tool.etcdctl(ep, "user", "add", "root:rootpw").ok();
        Tool.etcdctl(ep, "user", "grant-role", "root", "root").ok();
        Tool.etcdctl(ep, "role", "add", "reader").ok();
        Tool.etcdctl(ep, "role", "grant-permission", "reader", "read", "k", "--prefix").ok();
        Tool.etcdctl(ep, "user", "add", "alice:alicepw").ok();
        Tool.etcdctl(ep, "user", "grant-role", "alice", "reader").ok();
        source = history(ep, compactAt);
        assertEquals(2, source.leases().size());
        assertTrue(source.leases().values().stream().anyMatch(l -> keySet(l).size() == 2), "a lease with two keys");
        snapshot = home.resolve("real-snapshot.db");
        Tool.etcdctl(ep, "snapshot", "save", snapshot.toString()).ok();
        real.stop();
        memberDb = real.dataDir().resolve("member").resolve("snap").resolve("db");
    }

    @Test
    void statusOfARealSnapshotIsEtcdsOwn() throws Exception {
        for (Path file : List.of(snapshot, memberDb)) {
            JsonNode theirs = JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", file.toString(), "-w", "json").ok().out());
            JsonNode ours = JSON.readTree(Tool.etcdutl("snapshot", "status", file.toString(), "-w", "json").ok().out());
            for (String field : List.of("hash", "revision", "totalKey", "totalSize")) {
                assertEquals(theirs.get(field), ours.get(field), field + " of " + file.getFileName());
            }
        }
    }

    @Test
    void aRealSnapshotRestoresIntoOurMemberWithItsHistoryLeasesAndAuth() throws Exception {
        EtcdProcess ours = RES.track(EtcdProcess.of(ServerCommand.ours(), "ours", home));
        restoreWithEtcdutl(snapshot, ours, List.of());
        assertAuthBucketsCarried(snapshot, ours.dataDir());
        ours.start();
        assertSameHistory(source, history(ours.endpoint(), source.compacted()));
        assertCompactedBelow(ours.endpoint(), source.compacted());
        ours.stop();
    }

    @Test
    void aRealSnapshotRestoresIntoAThreeMemberClusterOfOurs() throws Exception {
        List<EtcdProcess> members = new ArrayList<>();
        for (String name : List.of("c1", "c2", "c3")) {
            members.add(RES.track(EtcdProcess.of(ServerCommand.ours(), name, home)));
        }
        StringJoiner cluster = new StringJoiner(",");
        members.forEach(m -> cluster.add(m.name() + "=" + m.peerUrl()));
        for (EtcdProcess m : members) {
            Tool.etcdutl("snapshot", "restore", snapshot.toString(), "--name", m.name(), "--data-dir", m.dataDir().toString(),
                    "--initial-cluster", cluster.toString(), "--initial-cluster-token", "from-etcd",
                    "--initial-advertise-peer-urls", m.peerUrl()).ok();
        }
        for (EtcdProcess m : members) {
            m.joinAs(cluster.toString(), "new");
            m.launch();
        }
        for (EtcdProcess m : members) {
            m.awaitStarted();
        }
        JsonNode latest = source.kvsByRev().get(source.latest());
        for (EtcdProcess m : members) {
            // each member answers from its own restored backend
            JsonNode got = JSON.readTree(Tool.etcdctl(m.endpoint(), "get", "", "--prefix", "-w", "json",
                    "--consistency=s").ok().out());
            assertEquals(latest, got.path("kvs"), m.name());
        }
        assertSameHistory(source, history(members.get(1).endpoint(), source.compacted()));
        for (EtcdProcess m : members) {
            m.stop();
        }
    }

    @Test
    void aStoppedRealMembersDbRestoresWithSkipHashCheck() throws Exception {
        EtcdProcess ours = RES.track(EtcdProcess.of(ServerCommand.ours(), "fromdb", home));
        Tool.Result refused = Tool.etcdutl("snapshot", "restore", memberDb.toString(), "--data-dir", ours.dataDir().toString());
        assertEquals(1, refused.code());
        assertTrue(refused.err().strip().endsWith("Error: snapshot missing hash but --skip-hash-check=false"), refused.err());
        assertFalse(Files.exists(ours.dataDir().resolve("member")), "nothing restored on a refused restore");
        TempDirs.delete(ours.dataDir());
        restoreWithEtcdutl(memberDb, ours, List.of("--skip-hash-check"));
        ours.start();
        assertSameHistory(source, history(ours.endpoint(), source.compacted()));
        ours.stop();
    }

    @Test
    void ourExportRestoresIntoARealEtcd() throws Exception {
        EtcdProcess ours = RES.track(EtcdProcess.of(ServerCommand.ours(), "exporter", home));
        restoreWithEtcdutl(snapshot, ours, List.of());
        ours.start();
        String ep = ours.endpoint();
        String lease = Tool.etcdctl(ep, "lease", "grant", "900").ok().out().split(" ")[1];
        Tool.etcdctl(ep, "put", "k5", "ours", "--lease=" + lease).ok();
        Tool.etcdctl(ep, "put", "k1", "fourth").ok();
        Tool.etcdctl(ep, "del", "k3").ok();
        long compactAt = revision(ep);
        Tool.etcdctl(ep, "compact", Long.toString(compactAt)).ok();
        Tool.etcdctl(ep, "put", "k6", "last").ok();
        History ourHistory = history(ep, compactAt);
        Path ourSnapshot = home.resolve("our-snapshot.db");
        Tool.etcdctl(ep, "snapshot", "save", ourSnapshot.toString()).ok();
        ours.stop();

        // from the stopped member's data dir; the file snapshot save wrote is etcd's format already
        Path fromDir = home.resolve("exported-from-dir.db");
        Tool.Result exported = Tool.etcdutl("snapshot", "export", ours.dataDir().toString(), fromDir.toString()).ok();
        assertEquals("Snapshot exported at " + fromDir, exported.out().strip());
        Tool.Result again = Tool.etcdutl("snapshot", "export", ourSnapshot.toString(), home.resolve("again.db").toString());
        assertEquals(1, again.code());
        assertTrue(again.err().contains("is already an etcd (bbolt) file; copy it as it is"), again.err());
        for (Path file : List.of(fromDir, ourSnapshot)) {
            // the real etcdctl checks the bbolt file (tx.Check) before it reports
            JsonNode status = JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", file.toString(), "-w", "json").ok().out());
            assertEquals(ourHistory.latest(), status.get("revision").asLong(), "revision of " + file.getFileName());
        }

        EtcdProcess real = RES.track(EtcdProcess.of(ServerCommand.realEtcd(), "back", home));
        Tool.etcdctl("127.0.0.1:1", "snapshot", "restore", fromDir.toString(), "--data-dir", real.dataDir().toString(),
                "--name", "back", "--initial-cluster", "back=" + real.peerUrl(),
                "--initial-advertise-peer-urls", real.peerUrl()).ok();
        real.start();
        String rep = real.endpoint();
        assertSameHistory(ourHistory, history(rep, compactAt));
        assertCompactedBelow(rep, compactAt);
        assertEquals(Set.of("root", "alice"), Set.of(Tool.etcdctl(rep, "user", "list").ok().out().strip().split("\n")));
        String role = Tool.etcdctl(rep, "role", "get", "reader").ok().out();
        assertTrue(role.contains("KV Read:\n\t[k, l) (prefix k)"), role);
        // the users' passwords and roles work once auth is on
        Tool.etcdctl(rep, "auth", "enable").ok();
        assertEquals("k1\nfourth", Tool.etcdctl(rep, "--user=alice:alicepw", "get", "k1").ok().out().strip());
        Tool.Result wrong = Tool.etcdctl(rep, "--user=alice:wrong", "get", "k1");
        assertTrue(wrong.err().contains("authentication failed, invalid user ID or password"), wrong.err());
        Tool.Result denied = Tool.etcdctl(rep, "--user=alice:alicepw", "put", "k1", "x");
        assertTrue(denied.err().contains("permission denied"), denied.err());
        real.stop();
    }

    /** Restores {@code file} with bin/etcdutl into {@code member}'s data dir as a one-member cluster. */
    private static void restoreWithEtcdutl(Path file, EtcdProcess member, List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("snapshot", "restore", file.toString(),
                "--data-dir", member.dataDir().toString(), "--name", member.name(),
                "--initial-cluster", member.name() + "=" + member.peerUrl(), "--initial-advertise-peer-urls", member.peerUrl()));
        args.addAll(extra);
        Tool.etcdutl(args.toArray(String[]::new)).ok();
    }

    /** The auth buckets of the restored backend hold the very bytes of etcd's (auth is not interpreted on the way). */
    private static void assertAuthBucketsCarried(Path etcdFile, Path dataDir) throws Exception {
        Map<String, Map<String, byte[]>> theirs = new LinkedHashMap<>();
        long dbSize = Files.size(etcdFile) - 32;
        try (BboltReader r = BboltReader.open(etcdFile, dbSize)) {
            r.forEachTopLevel((name, header, bucket) -> {
                Map<String, byte[]> entries = new TreeMap<>();
                r.forEachInBucket(header, (k, v, nested) -> entries.put(new String(k, StandardCharsets.UTF_8), v));
                theirs.put(new String(name, StandardCharsets.UTF_8), entries);
            });
        }
        Path db = dataDir.resolve("member").resolve("snap").resolve("db");
        try (Backend backend = Backend.open(db, 1L << 30); ReadTx tx = backend.beginRead()) {
            for (Bucket bucket : List.of(Bucket.AUTH, Bucket.AUTH_USERS, Bucket.AUTH_ROLES)) {
                Map<String, byte[]> ours = new TreeMap<>();
                tx.forEach(bucket, null, null, (k, v) -> ours.put(new String(k, StandardCharsets.UTF_8), v) == null);
                Map<String, byte[]> expected = theirs.get(bucket.dbName());
                assertEquals(expected.keySet(), ours.keySet(), bucket.dbName());
                for (String k : expected.keySet()) {
                    assertArrayEquals(expected.get(k), ours.get(k), bucket.dbName() + "/" + k);
                }
            }
            assertTrue(theirs.get("authUsers").containsKey("alice") && theirs.get("authRoles").containsKey("reader"));
        } finally {
            BackendFixture.deleteLockFile(db);
        }
    }
}
