package io.etcdj.etcdutl;

import static io.etcdj.etcdutl.ServedData.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Resources;
import io.etcdj.harness.ServerCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * etcd's TestCtlV3AuthSnapshot on our member and on a real etcd 3.4 side by side, with simple and
 * with JWT tokens: once auth is on, an ordinary user may not save a snapshot, root may; the file
 * is etcd's format (the real etcdctl's status reads the same revision and entries as from the
 * real etcd's), and a real etcd restored from it keeps auth on with the same users.
 */
class SnapshotAuthIT {
    @RegisterExtension
    static final Resources RES = new Resources();

    private record Outcome(Tool.Result refused, JsonNode status, Path file) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple", "jwt"})
    void onlyRootSavesASnapshotOnceAuthIsOn(String token) throws Exception {
        Path home = RES.dir("snapshot-auth-it-");
        String tokenFlag = "--auth-token=" + (token.equals("jwt") ? jwtOptions(home) : "simple");
        EtcdProcess ours = RES.track(EtcdProcess.of(ServerCommand.ours(), "ours", home, tokenFlag));
        EtcdProcess real = RES.track(EtcdProcess.of(ServerCommand.realEtcd(), "real", home, tokenFlag));
        ours.start();
        real.start();
        Outcome theirs = authSnapshot(real, home.resolve("real.db"));
        Outcome got = authSnapshot(ours, home.resolve("ours.db"));

        assertEquals(theirs.refused().code(), got.refused().code(), got.refused().err());
        assertTrue(theirs.refused().code() != 0, "the real etcd refused the ordinary user");
        assertEquals(lastLine(theirs.refused().err()), lastLine(got.refused().err()));
        assertEquals(4, got.status().get("revision").asLong(), "etcd's e2e test expects revision 4");
        assertEquals(theirs.status().get("revision"), got.status().get("revision"));
        assertEquals(theirs.status().get("totalKey"), got.status().get("totalKey"));

        EtcdProcess restored = RES.track(EtcdProcess.of(ServerCommand.realEtcd(), "restored", home, tokenFlag));
        Tool.etcdctl("127.0.0.1:1", "snapshot", "restore", got.file().toString(), "--data-dir", restored.dataDir().toString(),
                "--name", restored.name(), "--initial-cluster", restored.name() + "=" + restored.peerUrl(),
                "--initial-advertise-peer-urls", restored.peerUrl()).ok();
        restored.start();
        String ep = restored.endpoint();
        assertEquals("val3", Tool.etcdctl(ep, "--user=root:root", "get", "key", "--print-value-only").ok().out().strip());
        Tool.Result anonymous = Tool.etcdctl(ep, "get", "key");
        assertTrue(anonymous.code() != 0 && anonymous.err().contains("user name is empty"), anonymous.err());
        Tool.etcdctl(ep, "--user=test-user:pass", "put", "foo", "bar").ok();
        restored.stop();
        ours.stop();
        real.stop();
    }

    /** The steps of etcd's authTestSnapshot: three puts, auth on, a test user; its save refused, root's taken. */
    private static Outcome authSnapshot(EtcdProcess member, Path file) throws Exception {
        String ep = member.endpoint();
        for (String v : List.of("val1", "val2", "val3")) {
            Tool.etcdctl(ep, "put", "key", v).ok();
        }
        Tool.etcdctl(ep, "user", "add", "root", "--interactive=false", "--new-user-password=root").ok();
        Tool.etcdctl(ep, "user", "grant-role", "root", "root").ok();
        Tool.etcdctl(ep, "auth", "enable").ok();
        String root = "--user=root:root";
        Tool.etcdctl(ep, root, "user", "add", "test-user:pass").ok();
        Tool.etcdctl(ep, root, "role", "add", "test-role").ok();
        Tool.etcdctl(ep, root, "user", "grant-role", "test-user", "test-role").ok();
        Tool.etcdctl(ep, root, "role", "grant-permission", "test-role", "readwrite", "foo").ok();
        Tool.Result refused = Tool.etcdctl(ep, "--user=test-user:pass", "snapshot", "save", file.toString());
        Tool.etcdctl(ep, root, "snapshot", "save", file.toString()).ok();
        JsonNode status = JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", file.toString(), "-w", "json").ok().out());
        return new Outcome(refused, status, file);
    }

    private static String lastLine(String s) {
        List<String> lines = s.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** An RS256 key pair in PEM files, as --auth-token's jwt options name them. */
    private static String jwtOptions(Path dir) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Path priv = dir.resolve("jwt.key");
        Path pub = dir.resolve("jwt.pub");
        Files.writeString(priv, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
        Files.writeString(pub, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        return "jwt,pub-key=" + pub + ",priv-key=" + priv + ",sign-method=RS256";
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
