package io.etcdj.server.datadir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.bbolt.BboltReader;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalReadResult;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migration of a data dir the real etcdctl 3.4 restored (test resource {@code etcd34-restored},
 * see its README for how it was made and what etcd logged about it), including the crash points
 * between its renames.
 */
class EtcdDataDirMigrationTest {
    /** What the real etcdctl logged when it made the fixture. */
    private static final long MEMBER_ID = 0x58f3bddc312390aeL;
    private static final long CLUSTER_ID = 0x76eae74c4fc00fdL;
    private static final EtcdDataDirMigration.Lock NO_LOCK = () -> () -> { };

    @TempDir
    Path tmp;

    private Path fixture(String name) throws IOException, URISyntaxException {
        Path source = Path.of(getClass().getResource("/etcd34-restored/member").toURI());
        Path dataDir = tmp.resolve(name);
        copyTree(source, dataDir.resolve("member"));
        return dataDir;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    private static List<String> tree(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted().toList()) {
                out.add(root.relativize(p) + (Files.isRegularFile(p) ? " " + Arrays.hashCode(Files.readAllBytes(p)) : ""));
            }
        }
        return out;
    }

    @Test
    void theRestoredDirBecomesOursWithEtcdsMemberAndItsFilesKept() throws Exception {
        Path dataDir = fixture("r1");
        List<String> etcdFiles = tree(dataDir.resolve("member"));
        assertTrue(EtcdDataDirMigration.isEtcdDataDir(dataDir));

        EtcdDataDirMigration.Report r = EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK).orElseThrow();

        assertEquals(MEMBER_ID, r.memberId());
        assertEquals(CLUSTER_ID, r.clusterId());
        // the real restore logs one conf change per member, commits it and snapshots there
        assertEquals(1, r.consistentIndex());
        assertEquals(1, r.term());
        assertEquals(1, r.members());
        assertEquals(0, r.entriesCarried());
        assertEquals(etcdFiles, tree(dataDir.resolve(EtcdDataDirMigration.ETCD_FILES)), "etcd's files kept as they were");
        assertFalse(EtcdDataDirMigration.isEtcdDataDir(dataDir));
        assertFalse(Files.exists(dataDir.resolve(EtcdDataDirMigration.BUILT)));
        assertFalse(Files.exists(dataDir.resolve(EtcdDataDirMigration.BUILDING)));
        assertOurs(dataDir);
        assertEquals(Optional.empty(), EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK), "once only");
    }

    /** Our member: the WAL with etcd's IDs and a snapshot at 1, the backend with etcd's member (named from the log). */
    private static void assertOurs(Path dataDir) throws Exception {
        DataDirLayout layout = DataDirLayout.of(dataDir);
        try (Wal wal = Wal.open(layout.walPath(), new WalSnapshot(1, 1), WalOptions.DEFAULT)) {
            WalReadResult rr = wal.readAll();
            WalMetadata meta = WalMetadata.parseFrom(rr.metadata());
            assertEquals(MEMBER_ID, meta.getMemberId());
            assertEquals(CLUSTER_ID, meta.getClusterId());
            assertEquals(1, rr.hardState().getCommit());
            assertTrue(rr.entries().isEmpty());
        }
        assertFalse(BboltReader.looksLikeBbolt(layout.backendFile()));
        try (Backend b = Backends.open(layout.backendFile()); ReadTx tx = b.beginRead()) {
            assertEquals(1, Bytes.toLong(tx.get(Bucket.META, MetaKeys.CONSISTENT_INDEX)));
            Member m = Member.parseFrom(tx.get(Bucket.MEMBERS, Bytes.longBytes(MEMBER_ID)));
            assertEquals("r1", m.getName());
            assertEquals(List.of("http://127.0.0.1:35062"), m.getPeerURLsList());
            List<Long> revisions = new ArrayList<>();
            tx.forEach(Bucket.KEY, null, null, (k, v) -> revisions.add(Bytes.toLong(k)));
            // etcd's snapshot status of the snapshot: revision 5 (foo twice, a, leased: revisions 2..5)
            assertEquals(List.of(2L, 3L, 4L, 5L), revisions);
            List<byte[]> users = new ArrayList<>();
            tx.forEach(Bucket.AUTH_USERS, null, null, (k, v) -> users.add(k));
            assertEquals(1, users.size());
            assertArrayEquals("root".getBytes(StandardCharsets.UTF_8), users.get(0));
        }
    }

    @Test
    void aCutWhileBuildingLeavesEtcdsFilesAndTheNextStartBuildsAgain() throws Exception {
        Path dataDir = fixture("r1");
        Path building = dataDir.resolve(EtcdDataDirMigration.BUILDING);
        Files.createDirectories(building.resolve("snap"));
        Files.write(building.resolve("snap").resolve("db"), new byte[100]);

        EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK).orElseThrow();

        assertFalse(Files.exists(building));
        assertOurs(dataDir);
    }

    /** A complete build and etcd's member side by side: a cut before the first rename or between the two. */
    @Test
    void aCutAfterTheBuildIsFinishedByTheNextStartWhicheverRenameIsMissing() throws Exception {
        Path built = fixture("done");
        EtcdDataDirMigration.migrateIfEtcd(built, null, NO_LOCK).orElseThrow();

        Path beforeFirstRename = fixture("a");
        copyTree(built.resolve("member"), beforeFirstRename.resolve(EtcdDataDirMigration.BUILT));
        Path betweenRenames = fixture("b");
        Files.move(betweenRenames.resolve("member"), betweenRenames.resolve(EtcdDataDirMigration.ETCD_FILES));
        copyTree(built.resolve("member"), betweenRenames.resolve(EtcdDataDirMigration.BUILT));

        for (Path dataDir : List.of(beforeFirstRename, betweenRenames)) {
            assertEquals(Optional.empty(), EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK),
                    "the finished build is put in place, nothing more to migrate");
            assertOurs(dataDir);
            assertTrue(BboltReader.looksLikeBbolt(dataDir.resolve(EtcdDataDirMigration.ETCD_FILES).resolve("snap").resolve("db")));
            assertFalse(Files.exists(dataDir.resolve(EtcdDataDirMigration.BUILT)));
        }
    }

    @Test
    void aDamagedWalRecordIsRefusedNamingTheFileAndNothingChanges() throws Exception {
        Path dataDir = fixture("r1");
        Path wal = dataDir.resolve("member/wal/0000000000000000-0000000000000000.wal");
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.seek(120); // inside the data of the conf change entry (its record starts at 80)
            int b = f.read();
            f.seek(120);
            f.write(b ^ 0x01);
        }
        List<String> before = tree(dataDir);
        DataDirException e = assertThrows(DataDirException.class,
                () -> EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK));
        assertEquals("etcd WAL " + wal + " at offset 80: crc mismatch", e.getMessage());
        assertEquals(before, tree(dataDir));
    }

    @Test
    void aRecordCutShortAtTheEndOfTheLastSegmentEndsTheLogAsEtcdRepairsIt() throws Exception {
        Path dataDir = fixture("r1");
        Path wal = dataDir.resolve("member/wal/0000000000000000-0000000000000000.wal");
        // the last record (the snapshot marker at 232) loses its tail: the .snap is no longer marked,
        // so the membership comes from the logged conf change alone
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.setLength(250);
        }
        EtcdDataDirMigration.Report r = EtcdDataDirMigration.migrateIfEtcd(dataDir, null, NO_LOCK).orElseThrow();
        assertEquals(1, r.members());
        assertEquals(1, r.consistentIndex());
        try (Backend b = Backends.open(DataDirLayout.of(dataDir).backendFile()); ReadTx tx = b.beginRead()) {
            assertEquals("r1", Member.parseFrom(tx.get(Bucket.MEMBERS, Bytes.longBytes(MEMBER_ID))).getName());
        }
    }

    @Test
    void aSeparateWalDirIsRefusedWithWhatToDo() throws Exception {
        Path dataDir = fixture("r1");
        DataDirException e = assertThrows(DataDirException.class,
                () -> EtcdDataDirMigration.migrateIfEtcd(dataDir, tmp.resolve("wal"), NO_LOCK));
        assertTrue(e.getMessage().contains("--wal-dir is not supported: move etcd's WAL directory to "), e.getMessage());
    }
}
