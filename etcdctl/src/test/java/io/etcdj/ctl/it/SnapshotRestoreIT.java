package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds' backup and disaster-recovery procedure as scripts write it, with the etcd 3.4/3.5
 * command forms: `etcdctl snapshot save` from a running member, `etcdctl snapshot status`, then
 * `etcdctl snapshot restore` of the same file into each member of a new 3-member cluster, which
 * serves the data. Members are our server (bin/etcd); etcdctl is ours (bin/etcdctl).
 */
class SnapshotRestoreIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    @TempDir
    Path dir;
    private final List<Process> members = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : members) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private record Run(int code, String out, String err) {
    }

    private Run etcdctl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("bin/etcdctl").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        // ETCDJ_* stay: they keep the warm path off or in the test's own directory
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD") && !k.startsWith("ETCDJ_"));
        Process p = pb.start();
        byte[] err = p.getErrorStream().readAllBytes();
        byte[] out = p.getInputStream().readAllBytes();
        return new Run(p.waitFor(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private void member(String name, int client, int peer, String initialCluster, String state) throws IOException {
        List<String> cmd = List.of(ROOT.resolve("bin/etcd").toString(), "--name=" + name, "--data-dir=" + dir.resolve(name + ".etcd"),
                "--listen-client-urls=http://127.0.0.1:" + client, "--advertise-client-urls=http://127.0.0.1:" + client,
                "--listen-peer-urls=http://127.0.0.1:" + peer, "--initial-advertise-peer-urls=http://127.0.0.1:" + peer,
                "--initial-cluster=" + initialCluster, "--initial-cluster-state=" + state, "--initial-cluster-token=restored");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        members.add(pb.start());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("port " + port + " not listening");
    }

    @Test
    void backupWithSnapshotSaveAndRestoreIntoANewThreeMemberCluster() throws Exception {
        int c0 = freePort();
        int p0 = freePort();
        member("old", c0, p0, "old=http://127.0.0.1:" + p0, "new");
        awaitPort(c0);
        String old = "--endpoints=127.0.0.1:" + c0;
        for (int i = 0; i < 20; i++) {
            Run put = etcdctl(old, "put", "backup/k" + i, "v" + i);
            assertEquals(0, put.code(), put.err());
        }
        Run save = etcdctl(old, "snapshot", "save", "snapshot.db");
        assertEquals(0, save.code(), save.err());
        assertTrue(save.out().contains("Snapshot saved at snapshot.db"), save.out());
        stop();
        members.clear();

        Run status = etcdctl("snapshot", "status", "snapshot.db", "-w", "json");
        assertEquals(0, status.code(), status.err());
        assertTrue(status.err().startsWith("Deprecated: Use `etcdutl snapshot status` instead.\n\n"), status.err());
        assertTrue(status.out().contains("\"revision\":21"), status.out());

        int[] clients = {freePort(), freePort(), freePort()};
        int[] peers = {freePort(), freePort(), freePort()};
        String initial = "m1=http://127.0.0.1:" + peers[0] + ",m2=http://127.0.0.1:" + peers[1] + ",m3=http://127.0.0.1:" + peers[2];
        for (int i = 0; i < 3; i++) {
            String name = "m" + (i + 1);
            Run restore = etcdctl("snapshot", "restore", "snapshot.db", "--name", name, "--initial-cluster", initial,
                    "--initial-cluster-token", "restored", "--initial-advertise-peer-urls", "http://127.0.0.1:" + peers[i],
                    "--data-dir", name + ".etcd");
            assertEquals(0, restore.code(), restore.err());
            assertTrue(restore.err().startsWith("Deprecated: Use `etcdutl snapshot restore` instead.\n\n"), restore.err());
            assertTrue(Files.isDirectory(dir.resolve(name + ".etcd/member/wal")), restore.err());
        }
        for (int i = 0; i < 3; i++) {
            member("m" + (i + 1), clients[i], peers[i], initial, "new");
        }
        for (int c : clients) {
            awaitPort(c);
        }
        String all = "--endpoints=127.0.0.1:" + clients[0] + ",127.0.0.1:" + clients[1] + ",127.0.0.1:" + clients[2];
        Run members = etcdctl(all, "member", "list");
        assertEquals(0, members.code(), members.err());
        assertEquals(3, members.out().lines().count(), members.out());
        for (int c : clients) {
            Run get = etcdctl("--endpoints=127.0.0.1:" + c, "get", "backup/k19", "--print-value-only");
            assertEquals("v19\n", get.out(), get.err());
        }
        Run corrupt = etcdctl("snapshot", "restore", "missing.db", "--data-dir", "x.etcd");
        assertTrue(corrupt.code() != 0 && corrupt.err().contains("Error: "), corrupt.toString());
    }
}
