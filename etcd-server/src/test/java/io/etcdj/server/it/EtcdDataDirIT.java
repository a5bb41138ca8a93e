package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ServerCommand;
import io.etcdj.harness.TempDirs;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Our server started on a data dir a real etcd made: etcd's e2e TestIssue6361 (a snapshot saved
 * with the real etcdctl, restored with the real {@code etcdctl snapshot restore}, the member
 * started on the restored dir, then a second member added), the same from a real etcd 3.4's
 * snapshot, and the data dir a stopped real etcd 3.4 member leaves behind (a user moving from etcd
 * to this server in place). What is checked is what a user checks: the keys, the revision, the
 * leases, the users and the member list, with the real etcdctl.
 */
class EtcdDataDirIT {
    private final Path dir = TempDirs.create("etcd-datadir-it-");

    @AfterEach
    void cleanUp() {
        TempDirs.delete(dir);
    }

    private static long revision(Etcdctl ctl) {
        Matcher m = Pattern.compile("\"revision\":(\\d+)").matcher(ctl.run("get", "foo1", "-w", "json").ok().stdout());
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    /** The real etcdctl 3.4's restore of {@code snapshot} for {@code member} (its name and peer URL), into its data dir. */
    private static void realRestore(Path snapshot, EtcdProcess member, String token) {
        Etcdctl.Result r = new Etcdctl("127.0.0.1:1").run("snapshot", "restore", snapshot.toString(),
                "--name", member.name(), "--initial-cluster", member.name() + "=" + member.peerUrl(),
                "--initial-cluster-token", token, "--initial-advertise-peer-urls", member.peerUrl(),
                "--data-dir", member.dataDir().toString()).ok();
        assertTrue(r.stderr().contains("added member"), r.toString());
    }

    @Test
    void issue6361OurSnapshotRestoredByTheRealEtcdctlStartsOurMember() throws Exception {
        Path snapshot = dir.resolve("test.snapshot");
        long revision;
        Files.createDirectories(dir.resolve("before"));
        try (EtcdProcess first = EtcdProcess.of(ServerCommand.ours(), "infra1", dir.resolve("before"))) {
            first.start();
            Etcdctl ctl = new Etcdctl(first.endpoint());
            for (int i = 1; i <= 3; i++) {
                ctl.run("put", "foo" + i, "val" + i).ok();
            }
            revision = revision(ctl);
            assertTrue(ctl.run("snapshot", "save", snapshot.toString()).ok().stdout().contains("Snapshot saved at " + snapshot));
        }
        EtcdProcess restored = EtcdProcess.of(ServerCommand.ours(), "infra1", dir);
        try (restored) {
            realRestore(snapshot, restored, "new");
            restored.start();
            Etcdctl ctl = new Etcdctl(restored.endpoint());
            for (int i = 1; i <= 3; i++) {
                assertEquals("foo" + i + "\nval" + i + "\n", ctl.run("get", "foo" + i).ok().stdout());
            }
            assertEquals(revision, revision(ctl), "the restored member keeps the snapshot's revision");
            String members = ctl.run("member", "list").ok().stdout();
            assertEquals(1, members.lines().count(), members);
            assertTrue(members.contains(", started, infra1, " + restored.peerUrl() + ", " + restored.clientUrl()), members);
            String log = Files.readString(restored.logFile());
            assertTrue(log.contains("\"msg\":\"migrated a real etcd's data dir to this server's format\""), log);
            assertTrue(Files.isDirectory(restored.dataDir().resolve("member.etcd")), "etcd's files are kept");

            // the rest of TestIssue6361: a second member joins the restored one and serves the keys
            try (EtcdProcess second = EtcdProcess.of(ServerCommand.ours(), "infra2", dir)) {
                assertTrue(ctl.run("member", "add", "infra2", "--peer-urls=" + second.peerUrl()).ok().stdout()
                        .contains(" added to cluster "));
                second.joinAs("infra1=" + restored.peerUrl() + ",infra2=" + second.peerUrl(), "existing");
                second.start();
                Etcdctl ctl2 = new Etcdctl(second.endpoint());
                for (int i = 1; i <= 3; i++) {
                    assertEquals("foo" + i + "\nval" + i + "\n", ctl2.run("get", "foo" + i).ok().stdout());
                }
            }
        }
    }

    @Test
    void aRealEtcdSnapshotRestoredByTheRealEtcdctlStartsOurMemberWithItsLeasesAndUsers() throws Exception {
        Path snapshot = dir.resolve("real.snapshot");
        long revision;
        String leaseId;
        Files.createDirectories(dir.resolve("before"));
        try (EtcdProcess real = EtcdProcess.of(ServerCommand.realEtcd(), "e1", dir.resolve("before"))) {
            real.start();
            Etcdctl ctl = new Etcdctl(real.endpoint());
            writeHistory(ctl);
            leaseId = ctl.run("lease", "grant", "900").ok().stdout().split(" ")[1];
            ctl.run("put", "leased", "x", "--lease=" + leaseId).ok();
            revision = revision(ctl);
            ctl.run("snapshot", "save", snapshot.toString()).ok();
        }
        try (EtcdProcess ours = EtcdProcess.of(ServerCommand.ours(), "e1", dir)) {
            realRestore(snapshot, ours, "restored");
            ours.start();
            Etcdctl ctl = new Etcdctl(ours.endpoint());
            checkHistory(ctl, revision);
            assertTrue(ctl.run("lease", "list").ok().stdout().contains(leaseId));
            assertEquals("leased\nx\n", ctl.run("get", "leased").ok().stdout());
            assertTrue(ctl.run("lease", "timetolive", leaseId).ok().stdout().contains("granted with TTL(900s)"));
            checkUsers(ctl);
        }
    }

    @Test
    void theDataDirOfAStoppedRealEtcdMemberStartsOurs() throws Exception {
        long revision;
        String leaseId;
        String memberId;
        try (EtcdProcess real = EtcdProcess.of(ServerCommand.realEtcd(), "e1", dir)) {
            real.start();
            Etcdctl ctl = new Etcdctl(real.endpoint());
            writeHistory(ctl);
            leaseId = ctl.run("lease", "grant", "900").ok().stdout().split(" ")[1];
            ctl.run("put", "leased", "x", "--lease=" + leaseId).ok();
            revision = revision(ctl);
            memberId = ctl.run("member", "list").ok().stdout().split(",")[0];
            real.stop();
        }
        // the same data dir (e1.etcd in dir), our server, other ports: a member moves as etcd's own restart would
        try (EtcdProcess ours = EtcdProcess.of(ServerCommand.ours(), "e1", dir)) {
            ours.start();
            Etcdctl ctl = new Etcdctl(ours.endpoint());
            checkHistory(ctl, revision);
            assertTrue(ctl.run("lease", "list").ok().stdout().contains(leaseId));
            checkUsers(ctl);
            String members = ctl.run("member", "list").ok().stdout();
            assertEquals(1, members.lines().count(), members);
            assertTrue(members.startsWith(memberId + ", started, e1, "), "same member ID and name: " + members);
            // and it goes on (auth is on now): a write, a restart (now our own format), the data still there
            ctl.run("--user=root:rootpw", "put", "after", "migration").ok();
            ours.stop();
            ours.start();
            assertEquals("after\nmigration\n", new Etcdctl(ours.endpoint()).run("--user=root:rootpw", "get", "after").ok().stdout());
            assertEquals(1, Files.readString(ours.logFile()).split("migrated a real etcd's data dir", -1).length - 1,
                    "migrated once, not again on the restart");
        }
    }

    @Test
    void aDamagedEtcdWalIsRefusedByNameAndTheEtcdFilesStayAsTheyWere() throws Exception {
        try (EtcdProcess real = EtcdProcess.of(ServerCommand.realEtcd(), "e1", dir)) {
            real.start();
            new Etcdctl(real.endpoint()).run("put", "k", "v").ok();
            real.stop();
        }
        Path member = dir.resolve("e1.etcd").resolve("member");
        Path wal;
        try (Stream<Path> s = Files.list(member.resolve("wal"))) {
            wal = s.filter(p -> p.toString().endsWith(".wal")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.seek(100); // inside the first entry's record, after the crc and metadata records
            int b = f.read();
            f.seek(100);
            f.write(b ^ 0xff);
        }
        List<String> before = listing(dir.resolve("e1.etcd"));
        try (EtcdProcess ours = EtcdProcess.of(ServerCommand.ours(), "e1", dir)) {
            ours.launch();
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (ours.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(ours.isAlive(), "the member must stop");
            assertEquals(1, ours.exitCode());
            String log = Files.readString(ours.logFile());
            assertTrue(log.contains("etcd: etcd WAL " + wal + " at offset "), log);
            assertFalse(log.contains("\tat io.etcdj"), "no stack trace: " + log);
        }
        assertEquals(before, listing(dir.resolve("e1.etcd")), "nothing created, moved or left behind");
    }

    private static List<String> listing(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p).toString()).filter(n -> !n.endsWith("lock")).sorted().toList();
        }
    }

    /** Puts, an overwrite, a delete, a compaction and a user with a role, with the real etcdctl. */
    private static void writeHistory(Etcdctl ctl) {
        for (int i = 1; i <= 3; i++) {
            ctl.run("put", "foo" + i, "val" + i).ok();
        }
        ctl.run("put", "foo2", "val2b").ok();
        ctl.run("put", "gone", "x").ok();
        ctl.run("del", "gone").ok();
        ctl.run("compact", "3").ok();
        ctl.run("user", "add", "root:rootpw").ok();
        ctl.run("role", "add", "root").ok();
        ctl.run("user", "grant-role", "root", "root").ok();
    }

    private static void checkHistory(Etcdctl ctl, long revision) {
        assertEquals(revision, revision(ctl));
        assertEquals("foo1\nval1\nfoo2\nval2b\nfoo3\nval3\n", ctl.run("get", "foo", "--prefix").ok().stdout());
        assertEquals("foo2\nval2\n", ctl.run("get", "foo2", "--rev=4").ok().stdout(), "history since the compaction");
        Etcdctl.Result compacted = ctl.run("get", "foo1", "--rev=2");
        assertNotEquals(0, compacted.exitCode());
        assertTrue(compacted.stderr().contains("required revision has been compacted"), compacted.toString());
        assertEquals("", ctl.run("get", "gone").ok().stdout());
    }

    /** The user's password and role came along: with auth on, it works and a wrong password does not. */
    private static void checkUsers(Etcdctl ctl) {
        assertEquals("root\n", ctl.run("user", "list").ok().stdout());
        ctl.run("auth", "enable").ok();
        assertEquals("foo1\nval1\n", ctl.run("--user=root:rootpw", "get", "foo1").ok().stdout());
        Etcdctl.Result wrong = ctl.run("--user=root:wrong", "get", "foo1");
        assertNotEquals(0, wrong.exitCode());
        assertTrue(wrong.stderr().contains("authentication failed"), wrong.toString());
    }
}
