package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.harness.Command;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    private static final Path ROOT = OurMembers.ROOT;
    @TempDir
    Path dir;
    private OurMembers members;

    @AfterEach
    void stop() throws InterruptedException {
        if (members != null) {
            members.close();
        }
    }

    private record Run(int code, String out, String err) {
    }

    private Run etcdctl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ROOT.resolve("bin/etcdctl").toString()));
        cmd.addAll(List.of(args));
        // ETCDJ_* stay: they keep the warm path off or in the test's own directory
        Command.Result r = Command.of(cmd).dir(dir).withoutEnvIf(k -> k.startsWith("ETCD") && !k.startsWith("ETCDJ_")).run();
        return new Run(r.exitCode(), r.stdout(), r.stderr());
    }

    /**
     * The file is etcd's: a bbolt file (its magic in the first meta page) followed by the SHA-256
     * of what precedes it, as etcd's snapshot save writes it and its restore checks it.
     */
    private static void assertEtcdsFormat(Path file) throws Exception {
        byte[] all = Files.readAllBytes(file);
        assertTrue(all.length > 4096 + 32, "size " + all.length);
        int magic = ByteBuffer.wrap(all, 16, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        assertEquals(0xED0CDAED, magic, "bbolt's magic in the first meta page");
        byte[] body = Arrays.copyOf(all, all.length - 32);
        byte[] trailer = Arrays.copyOfRange(all, all.length - 32, all.length);
        assertTrue(Arrays.equals(MessageDigest.getInstance("SHA-256").digest(body), trailer),
                "the SHA-256 trailer of the saved file");
    }

    @Test
    void backupWithSnapshotSaveAndRestoreIntoANewThreeMemberCluster() throws Exception {
        members = new OurMembers(dir);
        OurMembers.Member first = OurMembers.member("old");
        members.start(first, OurMembers.initialCluster(List.of(first)), "new", "restored");
        String old = "--endpoints=" + first.endpoint();
        // the data to back up, through one client rather than 20 etcdctl JVMs (revision 21 either way)
        try (EtcdClient c = EtcdClient.connect(ClientConfig.builder().endpoints(List.of(Endpoint.parse(first.endpoint()))).build())) {
            for (int i = 0; i < 20; i++) {
                PutRequest put = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("backup/k" + i))
                        .setValue(ByteString.copyFromUtf8("v" + i)).build();
                c.kv(s -> s.put(put));
            }
        }
        Run save = etcdctl(old, "snapshot", "save", "snapshot.db");
        assertEquals(0, save.code(), save.err());
        assertTrue(save.out().contains("Snapshot saved at snapshot.db"), save.out());
        members.close();
        assertEtcdsFormat(dir.resolve("snapshot.db"));

        Run status = etcdctl("snapshot", "status", "snapshot.db", "-w", "json");
        assertEquals(0, status.code(), status.err());
        assertTrue(status.err().startsWith("Deprecated: Use `etcdutl snapshot status` instead.\n\n"), status.err());
        assertTrue(status.out().contains("\"revision\":21"), status.out());

        List<OurMembers.Member> cluster = List.of(OurMembers.member("m1"), OurMembers.member("m2"), OurMembers.member("m3"));
        String initial = OurMembers.initialCluster(cluster);
        for (OurMembers.Member m : cluster) {
            String name = m.name();
            Run restore = etcdctl("snapshot", "restore", "snapshot.db", "--name", name, "--initial-cluster", initial,
                    "--initial-cluster-token", "restored", "--initial-advertise-peer-urls", m.peerUrl(),
                    "--data-dir", name + ".etcd");
            assertEquals(0, restore.code(), restore.err());
            assertTrue(restore.err().startsWith("Deprecated: Use `etcdutl snapshot restore` instead.\n\n"), restore.err());
            assertTrue(Files.isDirectory(dir.resolve(name + ".etcd/member/wal")), restore.err());
        }
        for (OurMembers.Member m : cluster) {
            members.launch(m, initial, "new", "restored");
        }
        for (OurMembers.Member m : cluster) {
            OurMembers.awaitPort(m.client());
        }
        String all = "--endpoints=" + String.join(",", cluster.stream().map(OurMembers.Member::endpoint).toList());
        Run members = etcdctl(all, "member", "list");
        assertEquals(0, members.code(), members.err());
        assertEquals(3, members.out().lines().count(), members.out());
        for (OurMembers.Member m : cluster) {
            Run get = etcdctl("--endpoints=" + m.endpoint(), "get", "backup/k19", "--print-value-only");
            assertEquals("v19\n", get.out(), get.err());
        }
        Run corrupt = etcdctl("snapshot", "restore", "missing.db", "--data-dir", "x.etcd");
        assertTrue(corrupt.code() != 0 && corrupt.err().contains("Error: "), corrupt.toString());
    }
}
