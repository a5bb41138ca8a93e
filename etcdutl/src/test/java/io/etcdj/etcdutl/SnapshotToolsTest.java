package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.format.GoBytes;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalReadResult;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** snapshot status, hashkv and restore on files the server's own classes wrote. */
class SnapshotToolsTest {
    private static final String CLUSTER = "a=http://127.0.0.1:2380,b=http://127.0.0.1:2381,c=http://127.0.0.1:2382";

    @TempDir
    Path dir;
    Path db;
    Path snapshot;

    @BeforeEach
    void files() throws Exception {
        db = BackendFixture.backend(dir, 5);
        snapshot = BackendFixture.snapshotOf(db, dir.resolve("snap.db"));
    }

    @Test
    void statusReportsRevisionKeysAndSizeInEveryFormat() throws Exception {
        // 5 key revisions, 2 member records, consistent index and term
        long entries = 5 + 2 + 2;
        long size = Files.size(db);
        List<Path> filesBefore = listing(dir);
        Run json = Run.of("-w", "json", "snapshot", "status", snapshot.toString());
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().matches("\\{\"hash\":\\d+,\"revision\":6,\"totalKey\":" + entries + ",\"totalSize\":"
                + size + ",\"version\":\"3.6.0\"}\n"), json.out());
        long hash = Long.parseLong(json.out().replaceAll(".*\"hash\":(\\d+),.*\n", "$1"));
        Run simple = Run.of("snapshot", "status", snapshot.toString());
        assertEquals(Long.toHexString(hash) + ", 6, " + entries + ", " + GoBytes.format(size) + ", 3.6.0\n", simple.out());
        Run fields = Run.of("snapshot", "status", "--write-out=fields", snapshot.toString());
        assertEquals("\"Hash\" : " + hash + "\n\"Revision\" : 6\n\"Keys\" : " + entries + "\n\"Size\" : " + size
                + "\n\"Version\" : 3.6.0\n", fields.out());
        assertTrue(Run.of("-w", "table", "snapshot", "status", snapshot.toString()).out()
                .contains("| " + Long.toHexString(hash) + " |        6 |"));
        // a plain copy of member/snap/db reads the same, and reading leaves no file behind
        assertEquals(simple.out(), Run.of("snapshot", "status", db.toString()).out());
        assertEquals(filesBefore, listing(dir), "the reads left no file behind");
    }

    /** The files of {@code dir}, sorted (the fixture's backend, its durable-commit record, the snapshot). */
    private static List<Path> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void hashkvEqualsTheServersHashKv() {
        long[] expected;
        try (Backend backend = Backend.open(db, 1L << 30); ReadView v = MvccStore.open(backend).openRead()) {
            expected = v.hashKv(4);
        }
        BackendFixture.deleteLockFile(db);
        Run r = Run.of("hashkv", snapshot.toString(), "--rev", "4");
        assertEquals(0, r.code(), r.err());
        assertEquals(expected[0] + ", 4, 0\n", r.out());
        assertEquals("{\"hash\":" + expected[0] + ",\"hashRevision\":4,\"compactRevision\":0}\n",
                Run.of("-w", "json", "hashkv", db.toString(), "--rev=4").out());
        assertNotEquals(r.out(), Run.of("hashkv", db.toString()).out());
        assertEquals("Error: mvcc: required revision is a future revision",
                Run.of("hashkv", db.toString(), "--rev", "99").error());
    }

    @Test
    void restoreRefusesABadOrMissingHash() throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(snapshot.toFile(), "rw")) {
            f.seek(100);
            f.write(f.read() ^ 0xff);
        }
        Path target = dir.resolve("bad.etcd");
        Run bad = Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", target.toString());
        assertEquals(1, bad.code());
        assertTrue(bad.error().matches("Error: expected sha256 \\[[0-9 ]+], got \\[[0-9 ]+]"), bad.error());
        assertFalse(Files.exists(target), "a failed restore leaves nothing behind");

        Run plain = Run.of("snapshot", "restore", db.toString(), "--data-dir", target.toString());
        assertEquals("Error: snapshot missing hash but --skip-hash-check=false", plain.error());
        assertFalse(Files.exists(target));
        Run skipped = Run.of("snapshot", "restore", db.toString(), "--data-dir", target.toString(), "--skip-hash-check");
        assertEquals(0, skipped.code(), skipped.err());
    }

    @Test
    void restoreRefusesExistingDirectories() throws Exception {
        Path full = Files.createDirectories(dir.resolve("full"));
        Files.writeString(full.resolve("x"), "x");
        Run r = Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", full.toString());
        assertEquals(1, r.code());
        assertEquals("Error: data-dir \"" + full + "\" not empty or could not be read", r.error());
        Run w = Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", dir.resolve("d").toString(),
                "--wal-dir", full.toString());
        assertEquals("Error: wal-dir \"" + full + "\" exists", w.error());
        // an empty data dir is fine
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals(0, Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", empty.toString()).code());
    }

    @Test
    void restoreChecksTheClusterFlagsAsEtcd() {
        String snap = snapshot.toString();
        String target = dir.resolve("t").toString();
        assertEquals("Error: couldn't find local name \"x\" in the initial cluster configuration",
                Run.of("snapshot", "restore", snap, "--data-dir", target, "--name", "x").error());
        assertEquals("Error: --initial-cluster has a=http://127.0.0.1:1 but missing from "
                        + "--initial-advertise-peer-urls=http://127.0.0.1:3 "
                        + "(resolved urls: \"http://127.0.0.1:3\" != \"http://127.0.0.1:1\")",
                Run.of("snapshot", "restore", snap, "--data-dir", target, "--name", "a", "--initial-cluster",
                        "a=http://127.0.0.1:1,b=http://127.0.0.1:2", "--initial-advertise-peer-urls", "http://127.0.0.1:3").error());
        assertEquals("Error: URL scheme must be http, https, unix, or unixs: foo",
                Run.of("snapshot", "restore", snap, "--data-dir", target, "--initial-advertise-peer-urls", "foo").error());
        assertFalse(Files.exists(Path.of(target)));
    }

    @Test
    void restoreWritesTheNewClusterIntoBackendWalAndSnapshot() throws Exception {
        Path target = dir.resolve("b.etcd");
        Run r = Run.of("snapshot", "restore", snapshot.toString(), "--name", "b", "--data-dir", target.toString(),
                "--initial-cluster", CLUSTER, "--initial-cluster-token", "tok",
                "--initial-advertise-peer-urls", "http://127.0.0.1:2381");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("restored snapshot"), r.err());

        List<Long> ids = new ArrayList<>();
        for (String url : List.of("http://127.0.0.1:2380", "http://127.0.0.1:2381", "http://127.0.0.1:2382")) {
            ids.add(MemberIds.memberId(List.of(url), "tok", null));
        }
        ids.sort(Long::compareUnsigned);
        long self = MemberIds.memberId(List.of("http://127.0.0.1:2381"), "tok", null);

        Path dbFile = target.resolve("member/snap/db");
        assertFalse(Files.exists(target.resolve("member/snap/db-lock")));
        try (Backend backend = Backend.open(dbFile, 1L << 30); ReadTx tx = backend.beginRead()) {
            List<Long> members = new ArrayList<>();
            List<String> names = new ArrayList<>();
            tx.forEach(Bucket.MEMBERS, null, null, (k, v) -> {
                try {
                    Member m = Member.parseFrom(v);
                    members.add(m.getID());
                    names.add(m.getName());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return true;
            });
            assertEquals(ids, members);
            assertTrue(names.containsAll(List.of("a", "b", "c")));
            int[] removed = {0};
            tx.forEach(Bucket.MEMBERS_REMOVED, null, null, (k, v) -> removed[0]++ > -1);
            assertEquals(0, removed[0]);
            assertEquals(3, Bytes.toLong(tx.get(Bucket.META, MetaKeys.CONSISTENT_INDEX)));
            assertEquals(1, Bytes.toLong(tx.get(Bucket.META, MetaKeys.TERM)));
            assertEquals(6, MvccStore.open(backend).currentRevision(), "every revision of the snapshot is kept");
        }

        Path walDir = target.resolve("member/wal");
        List<WalSnapshot> valid = Wal.validSnapshots(walDir, WalOptions.DEFAULT);
        Optional<Snapshot> snap = new Snapshotter(target.resolve("member/snap")).loadNewestAvailable(valid::contains);
        assertTrue(snap.isPresent());
        assertEquals(3, snap.get().getMetadata().getIndex());
        assertEquals(ids, snap.get().getMetadata().getConfState().getVotersList());
        try (Wal wal = Wal.open(walDir, WalSnapshot.NONE, WalOptions.DEFAULT)) {
            WalReadResult rr = wal.readAll();
            WalMetadata meta = WalMetadata.parseFrom(rr.metadata());
            assertEquals(self, meta.getMemberId());
            assertEquals(MemberIds.clusterId(ids), meta.getClusterId());
            assertEquals(3, rr.hardState().getCommit());
            assertEquals(3, rr.entries().size());
            for (int i = 0; i < 3; i++) {
                Entry e = rr.entries().get(i);
                ConfChange cc = ConfChange.parseFrom(e.getData());
                assertEquals(ConfChangeType.ConfChangeAddNode, cc.getType());
                assertEquals(ids.get(i), cc.getNodeId());
                assertArrayEquals(new long[] {i + 1L, 1}, new long[] {e.getIndex(), e.getTerm()});
            }
        }
    }

    @Test
    void bumpRevisionMarksTheNewRevisionCompacted() throws Exception {
        Path target = dir.resolve("bumped");
        Run r = Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", target.toString(),
                "--bump-revision", "1000", "--mark-compacted");
        assertEquals(0, r.code(), r.err());
        Path dbFile = target.resolve("member/snap/db");
        try (Backend backend = Backend.open(dbFile, 1L << 30)) {
            MvccStore store = MvccStore.open(backend);
            assertEquals(1006, store.currentRevision());
            assertEquals(1006, store.compactRevision());
        }
        BackendFixture.deleteLockFile(dbFile);
        assertTrue(Run.of("snapshot", "status", dbFile.toString()).out().contains(", 1006, "));
        // a bump moves revisions on but keeps every stored revision, so the history hashes the same
        String originalHash = Run.of("hashkv", snapshot.toString()).out().split(",")[0];
        assertEquals(originalHash + ", 1006, 1006\n", Run.of("hashkv", "--data-dir", target.toString()).out());
    }

    @Test
    void defragKeepsEveryKey() throws Exception {
        Path target = dir.resolve("d");
        assertEquals(0, Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", target.toString()).code());
        String before = Run.of("hashkv", "--data-dir", target.toString()).out();
        Run r = Run.of("defrag", "--data-dir", target.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("finished defragmenting directory"), r.err());
        assertEquals(before, Run.of("hashkv", "--data-dir", target.toString()).out());
    }

    @Test
    void walDirPutsTheLogElsewhere() throws Exception {
        Path target = dir.resolve("w.etcd");
        Path walDir = dir.resolve("wal-elsewhere");
        Run r = Run.of("snapshot", "restore", snapshot.toString(), "--data-dir", target.toString(),
                "--wal-dir", walDir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Wal.exists(walDir));
        assertFalse(Files.exists(target.resolve("member/wal")));
        assertTrue(Files.exists(target.resolve("member/snap/db")));
    }
}
