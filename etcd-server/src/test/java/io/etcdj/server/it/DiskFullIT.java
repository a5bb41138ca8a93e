package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.TempDirs;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A full disk (ENOSPC, not the NOSPACE quota alarm): the member's files live on a small tmpfs
 * that a filler file all but fills, and a writer puts 64 KiB values until a put fails. As etcd
 * 3.4 does, the member then exits 1 with one fatal line that names the file and "no space left
 * on device"; the client gets an error, never a stack trace; once the filler is deleted the
 * member starts again and serves every write it acknowledged, with its value, and takes new ones.
 * The backend case runs against the real etcd too; the WAL cases are ours alone (etcd preallocates
 * its 64 MB WAL segments, so its WAL meets a full disk only when it cuts one, after 64 MB of
 * writes: docs/operations.md has what it does then).
 */
class DiskFullIT {
    private static final int VALUE_BYTES = 64 * 1024;
    private static final int MAX_PUTS = 400;
    private static final long LEAVE_FREE = 2L << 20;

    /** What a user sees, for the comparison and for docs/testing.md. */
    private record Outcome(int acknowledged, String clientError, int exitCode, String fatalLine, int fatalLines,
                           long secondsToExit, String restartWhileFull) {
    }

    /** The backend file alone on the small disk (the WAL elsewhere): etcd and ours name it the same way. */
    @Test
    void theBackendFillingUpStopsTheMemberAsEtcdDoesAndNothingAcknowledgedIsLost() throws Exception {
        Outcome etcd = backendFull(EtcdProcess.Binary.REAL_ETCD);
        Outcome ours = backendFull(EtcdProcess.Binary.OURS);
        System.out.println("disk full under the backend, etcd 3.4: " + etcd + "\nours: " + ours);
        assertEquals(etcd.exitCode(), ours.exitCode(), "both exit with the same status");
        assertTrue(etcd.fatalLine().contains("\"error\":\"write ") && etcd.fatalLine().contains("/member/snap/db: no space left on device"),
                etcd.fatalLine());
        assertTrue(ours.fatalLine().contains("write ") && ours.fatalLine().contains("/member/snap/db: no space left on device"),
                ours.fatalLine());
        assertEquals(1, ours.fatalLines(), "one fatal line");
    }

    private static Outcome backendFull(EtcdProcess.Binary binary) throws Exception {
        Path walDir = TempDirs.create("etcd-wal-");
        try (SmallTmpfs fs = SmallTmpfs.mount(32)) {
            return scenario(binary, fs, "--data-dir=" + fs.dir().resolve("data"), "--wal-dir=" + walDir.resolve("wal"));
        } finally {
            TempDirs.delete(walDir);
        }
    }

    /** The WAL alone on the small disk: ours names the segment file (etcd 3.4 says "no space left on device" alone). */
    @Test
    void theWalFillingUpStopsTheMemberAndARestartServesEveryAcknowledgedWrite() throws Exception {
        try (SmallTmpfs fs = SmallTmpfs.mount(32)) {
            Outcome ours = scenario(EtcdProcess.Binary.OURS, fs, "--wal-dir=" + fs.dir().resolve("wal"));
            System.out.println("disk full under the WAL, ours: " + ours);
            assertTrue(ours.fatalLine().contains("wal: write " + fs.dir().resolve("wal")), ours.fatalLine());
            assertEquals(1, ours.fatalLines(), "one fatal line");
        }
    }

    /** The whole data dir on the small disk: whichever file meets the full disk first, the member stops and recovers. */
    @Test
    void theDataDirFillingUpStopsTheMemberAndARestartServesEveryAcknowledgedWrite() throws Exception {
        try (SmallTmpfs fs = SmallTmpfs.mount(32)) {
            Outcome ours = scenario(EtcdProcess.Binary.OURS, fs, "--data-dir=" + fs.dir().resolve("data"));
            System.out.println("disk full under the data dir, ours: " + ours);
            assertEquals(1, ours.fatalLines(), "one fatal line");
        }
    }

    /**
     * Starts the member with {@code placement} (its files on {@code fs}), fills the disk, writes
     * until a put fails, checks how the member stopped, frees the space, restarts it and checks
     * every acknowledged write.
     */
    private static Outcome scenario(EtcdProcess.Binary binary, SmallTmpfs fs, String... placement)
            throws Exception {
        try (EtcdProcess m = binary == EtcdProcess.Binary.OURS ? EtcdProcess.ours(placement) : EtcdProcess.realEtcd(placement)) {
            m.start();
            Etcdctl ctl = new Etcdctl(m.endpoint());
            fs.fillLeaving(LEAVE_FREE);
            List<Integer> acknowledged = new ArrayList<>();
            Etcdctl.Result failed = null;
            for (int i = 0; i < MAX_PUTS && failed == null; i++) {
                Etcdctl.Result put = ctl.runWithInput(value(i), "put", key(i));
                if (put.exitCode() == 0) {
                    acknowledged.add(i);
                } else {
                    failed = put;
                }
            }
            assertNotNull(failed, m.describe() + " took " + MAX_PUTS + " puts on a disk with "
                    + fs.freeBytes() + " bytes free");
            assertFalse(failed.stderr().contains("\tat ") || failed.stderr().contains("Exception"),
                    "no stack trace to the client: " + failed.stderr());
            long stopping = System.nanoTime();
            Eventually.until(m.describe() + " stops", Duration.ofSeconds(60), () -> !m.isAlive());
            long secondsToExit = Duration.ofNanos(System.nanoTime() - stopping).toSeconds();
            List<String> fatal = m.logSinceLaunch().lines().filter(l -> l.contains("\"level\":\"fatal\"")).toList();
            assertFalse(fatal.isEmpty(), "no fatal line: " + m.logTail());
            String line = fatal.get(0);
            assertTrue(line.contains("no space left on device") && line.contains(fs.dir().toString()),
                    "the fatal line names the file and the full disk: " + line);
            int exitCode = m.exitCode();
            if (binary == EtcdProcess.Binary.OURS) {
                // the WAL the member left is whole (at most a torn last write, cut off on open)
                var wal = Wal.verify(walDir(m, placement), WalSnapshot.NONE);
                assertTrue(wal.entries().size() >= acknowledged.size(), "entries in the WAL: " + wal.entries().size());
            }

            String whileFull = binary == EtcdProcess.Binary.OURS ? restartWhileFull(m, fs) : "not tried";
            fs.free();
            m.start();
            for (int i : acknowledged) {
                String got = ctl.run("get", key(i), "--print-value-only").ok().stdout();
                assertEquals(value(i), got.strip(), "acknowledged " + key(i) + " after the restart");
            }
            ctl.run("put", "after-the-restart", "v").ok();
            assertEquals("v", ctl.run("get", "after-the-restart", "--print-value-only").ok().stdout().strip());
            return new Outcome(acknowledged.size(), lastLine(failed.stderr()), exitCode, line, fatal.size(), secondsToExit,
                    whileFull);
        }
    }

    /**
     * A restart before any space is freed must neither hang nor damage anything: the member either
     * stops again with one fatal line naming the full disk (replaying the failed write needs the
     * space) or starts; the restart after the space is freed then checks every acknowledged write.
     */
    private static String restartWhileFull(EtcdProcess m, SmallTmpfs fs) throws Exception {
        m.launch();
        Eventually.until(m.describe() + " stops or serves on a full disk", Duration.ofSeconds(90),
                () -> !m.isAlive() || m.logSinceLaunch().contains("ready to serve client requests"));
        if (m.isAlive()) {
            m.stop();
            return "started and served";
        }
        List<String> fatal = m.logSinceLaunch().lines().filter(l -> l.contains("\"level\":\"fatal\"")).toList();
        assertEquals(1, m.exitCode(), m.logTail());
        assertEquals(1, fatal.size(), "one fatal line: " + m.logTail());
        assertTrue(fatal.get(0).contains("no space left on device") && fatal.get(0).contains(fs.dir().toString()), fatal.get(0));
        return "exited " + m.exitCode() + " with one fatal line";
    }

    /** The member's WAL directory: --wal-dir if given, else member/wal under its data dir. */
    private static Path walDir(EtcdProcess m, String... placement) {
        Path dataDir = m.dataDir();
        for (String flag : placement) {
            if (flag.startsWith("--wal-dir=")) {
                return Path.of(flag.substring("--wal-dir=".length()));
            }
            if (flag.startsWith("--data-dir=")) {
                dataDir = Path.of(flag.substring("--data-dir=".length()));
            }
        }
        return dataDir.resolve("member").resolve("wal");
    }

    private static String key(int i) {
        return "full/" + i;
    }

    private static String value(int i) {
        String head = "value-" + i + "-";
        return head + "x".repeat(VALUE_BYTES - head.length());
    }

    private static String lastLine(String s) {
        List<String> lines = s.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
