package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.Resources;
import io.etcdj.harness.ServerCommand;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole round trip with real processes: our server writes keys (with a lease, a deleted bulk
 * range and a compaction), the real etcdctl saves a snapshot from it, bin/etcdutl inspects and
 * restores it, and new clusters of our server start from the restored data dirs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestoreClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int KEYS = 10;

    /** Every member and the temp dir, removed after the class however it ends; log tails on a failure. */
    @RegisterExtension
    static final Resources RES = new Resources();

    private Path home;
    private EtcdProcess source;
    private Path snapshot;
    private long sourceRevision;
    private long sourceHash;
    private long compactedAt;
    private JsonNode sourceKvs;
    private String leaseHex;

    @BeforeAll
    void writeAndSnapshot() throws Exception {
        home = RES.dir("etcdutl-it-");
        source = RES.track(EtcdProcess.of(ServerCommand.ours(), "source", home));
        source.start();
        String ep = source.endpoint();
        leaseHex = Tool.etcdctl(ep, "lease", "grant", "3600").ok().out().split(" ")[1];
        for (int i = 0; i < KEYS; i++) {
            Tool.etcdctl(ep, "put", "key" + i, "value" + i).ok();
        }
        Tool.etcdctl(ep, "put", "leased", "v", "--lease=" + leaseHex).ok();
        Tool.etcdctl(ep, "put", "key0", "second").ok();
        String bulk = "x".repeat(20_000);
        for (int i = 0; i < 40; i++) {
            Tool.etcdctl(ep, "put", "bulk" + i, bulk).ok();
        }
        Tool.etcdctl(ep, "del", "--prefix", "bulk").ok();
        compactedAt = revision(ep);
        Tool.etcdctl(ep, "compact", Long.toString(compactedAt)).ok();
        Tool.etcdctl(ep, "put", "key5", "after-compaction").ok();
        snapshot = home.resolve("snapshot.db");
        Tool.etcdctl(ep, "snapshot", "save", snapshot.toString()).ok();
        sourceRevision = revision(ep);
        sourceKvs = JSON.readTree(Tool.etcdctl(ep, "get", "--prefix", "", "-w", "json").ok().out()).get("kvs");
        JsonNode hashKv = JSON.readTree(Tool.etcdctl(ep, "endpoint", "hashkv", "-w", "json").ok().out());
        sourceHash = hashKv.get(0).get("HashKV").path("hash").asLong();
        assertTrue(sourceHash != 0, hashKv.toString());
        source.stop();
    }

    @Test
    void statusAndHashKvOfTheSnapshotMatchTheServer() throws Exception {
        JsonNode status = JSON.readTree(Tool.etcdutl("snapshot", "status", snapshot.toString(), "-w", "json").ok().out());
        assertEquals(sourceRevision, status.get("revision").asLong());
        assertEquals(Files.size(snapshot) - 32, status.get("totalSize").asLong());
        // every user key revision left after compaction is an entry, plus members, meta, lease records
        assertTrue(status.get("totalKey").asLong() > sourceKvs.size(), status.toString());
        String hashKv = Tool.etcdutl("hashkv", snapshot.toString()).ok().out();
        assertEquals(sourceHash + ", " + sourceRevision + ", " + compactedAt + "\n", hashKv);
    }

    @Test
    void defragShrinksTheStoppedSourceMember() throws Exception {
        Path db = source.dataDir().resolve("member/snap/db");
        long before = Files.size(db);
        Tool.Result r = Tool.etcdutl("defrag", "--data-dir", source.dataDir().toString()).ok();
        long after = Files.size(db);
        assertTrue(after < before / 2, "defrag left " + after + " of " + before + " bytes");
        assertTrue(r.err().contains("finished defragmenting directory"), r.err());
        String hash = Tool.etcdutl("hashkv", "--data-dir", source.dataDir().toString()).ok().out();
        assertEquals(sourceHash, Long.parseLong(hash.split(",")[0]), "defrag keeps the data");
    }

    @Test
    void restoredThreeMemberClusterHasEveryKeyRevisionAndLease() throws Exception {
        List<EtcdProcess> members = new ArrayList<>();
        for (String name : List.of("m1", "m2", "m3")) {
            members.add(RES.track(EtcdProcess.of(ServerCommand.ours(), name, home)));
        }
        StringJoiner cluster = new StringJoiner(",");
        members.forEach(m -> cluster.add(m.name() + "=" + m.peerUrl()));
        for (EtcdProcess m : members) {
            Tool.etcdutl("snapshot", "restore", snapshot.toString(), "--name", m.name(), "--data-dir", m.dataDir().toString(),
                    "--initial-cluster", cluster.toString(), "--initial-cluster-token", "restored",
                    "--initial-advertise-peer-urls", m.peerUrl()).ok();
        }
        for (EtcdProcess m : members) {
            m.joinAs(cluster.toString(), "new");
            m.launch();
        }
        for (EtcdProcess m : members) {
            m.awaitStarted();
        }
        StringJoiner all = new StringJoiner(",");
        members.forEach(m -> all.add(m.endpoint()));
        awaitOneLeader(all.toString(), 3);

        for (EtcdProcess m : members) {
            JsonNode got = JSON.readTree(Tool.etcdctl(m.endpoint(), "get", "--prefix", "", "-w", "json",
                    "--consistency=s").ok().out());
            assertEquals(sourceKvs, got.get("kvs"), m.name());
            assertEquals(sourceRevision, got.get("header").get("revision").asLong(), m.name());
        }
        assertTrue(Tool.etcdctl(all.toString(), "lease", "list").ok().out().contains(leaseHex));
        String members3 = Tool.etcdctl(all.toString(), "member", "list").ok().out();
        assertEquals(3, members3.strip().split("\n").length, members3);
        JsonNode put = JSON.readTree(Tool.etcdctl(all.toString(), "put", "after", "restore", "-w", "json").ok().out());
        assertEquals(sourceRevision + 1, put.get("header").get("revision").asLong());
    }

    @Test
    void bumpedRestoreStartsPastTheOldRevisionWithHistoryCompacted() throws Exception {
        EtcdProcess m = RES.track(EtcdProcess.of(ServerCommand.ours(), "bumped", home));
        String cluster = m.name() + "=" + m.peerUrl();
        Tool.etcdutl("snapshot", "restore", snapshot.toString(), "--name", m.name(), "--data-dir", m.dataDir().toString(),
                "--initial-cluster", cluster, "--initial-advertise-peer-urls", m.peerUrl(),
                "--bump-revision", "1000", "--mark-compacted").ok();
        m.joinAs(cluster, "new");
        m.start();
        awaitOneLeader(m.endpoint(), 1);
        assertEquals(sourceRevision + 1000, revision(m.endpoint()));
        Tool.Result old = Tool.etcdctl(m.endpoint(), "get", "key1", "--rev=" + sourceRevision);
        assertEquals(1, old.code());
        assertTrue(old.err().contains("required revision has been compacted"), old.err());
        JsonNode put = JSON.readTree(Tool.etcdctl(m.endpoint(), "put", "k", "v", "-w", "json").ok().out());
        assertEquals(sourceRevision + 1001, put.get("header").get("revision").asLong());
        assertEquals("value1", new String(Base64.getDecoder().decode(JSON.readTree(Tool.etcdctl(
                m.endpoint(), "get", "key1", "-w", "json").ok().out()).get("kvs").get(0).get("value").asText())));
    }

    @Test
    void restoreRefusesACorruptSnapshot() throws Exception {
        Path bad = home.resolve("corrupt.db");
        Files.copy(snapshot, bad);
        try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
            f.seek(4096 + 17);
            int b = f.read();
            f.seek(4096 + 17);
            f.write(b ^ 0x01);
        }
        Path target = home.resolve("never");
        Tool.Result r = Tool.etcdutl("snapshot", "restore", bad.toString(), "--data-dir", target.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().strip().endsWith("]") && r.err().contains("Error: expected sha256 ["), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(target));
    }

    private static long revision(String endpoint) throws IOException, InterruptedException {
        return JSON.readTree(Tool.etcdctl(endpoint, "get", "none", "-w", "json").ok().out())
                .get("header").get("revision").asLong();
    }

    /** Waits until every endpoint names the same leader, which must be one of them. */
    private static void awaitOneLeader(String endpoints, int count) throws Exception {
        Eventually.until("an agreed leader among " + endpoints, Duration.ofSeconds(60), Duration.ofMillis(200), () -> {
            Tool.Result r = Tool.etcdctl(endpoints, "endpoint", "status", "-w", "json");
            if (r.code() != 0) {
                throw new IllegalStateException(r.out() + r.err());
            }
            JsonNode statuses = JSON.readTree(r.out());
            Set<Long> leaders = new HashSet<>();
            Set<Long> ids = new HashSet<>();
            for (JsonNode s : statuses) {
                leaders.add(s.get("Status").path("leader").asLong());
                ids.add(s.get("Status").get("header").get("member_id").asLong());
            }
            if (statuses.size() == count && leaders.size() == 1 && ids.containsAll(leaders)) {
                return true;
            }
            throw new IllegalStateException(r.out());
        });
    }
}
