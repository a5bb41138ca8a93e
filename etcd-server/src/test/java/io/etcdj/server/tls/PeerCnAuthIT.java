package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.LoggedProcess;
import io.etcdj.harness.ServerCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd's e2e TestEtcdPeerCNAuth: three members with --peer-cert-allowed-cn=example.com, the third
 * one's peer certificate for CN example2.com. The refused member's log carries Go's text for the
 * refusal, "remote error: tls: bad certificate" (the e2e test waits for it), and the refusing
 * members log "rejected connection" with "client certificate authentication failed", as the real
 * etcd 3.4 does (measured with the same certificates: its refused member logs the text in its
 * dial errors and its own rejected-connection lines).
 */
class PeerCnAuthIT {
    @TempDir
    Path dir;

    @Test
    void aPeerRefusedForItsCnLogsGosText() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create("peer-ca");
        Path caFile = dir.resolve("ca.pem");
        ca.writePem(caFile, dir.resolve("ca-key.pem"));
        int[] client = new int[3];
        int[] peer = new int[3];
        List<String> cluster = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            client[i] = TlsMember.freePort();
            peer[i] = TlsMember.freePort();
            cluster.add("m" + i + "=https://127.0.0.1:" + peer[i]);
            String cn = i < 2 ? "example.com" : "example2.com";
            ca.issue(CertificateRequest.peer(cn).hosts(List.of("127.0.0.1"))).writePem(dir.resolve("m" + i + ".pem"),
                    dir.resolve("m" + i + "-key.pem"));
        }
        List<LoggedProcess> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                List<String> cmd = new ArrayList<>(ServerCommand.ours().prefix(List.of()));
                cmd.addAll(List.of("--name=m" + i, "--data-dir=" + dir.resolve("m" + i + ".etcd"),
                        "--listen-client-urls=http://127.0.0.1:" + client[i], "--advertise-client-urls=http://127.0.0.1:" + client[i],
                        "--listen-peer-urls=https://127.0.0.1:" + peer[i], "--initial-advertise-peer-urls=https://127.0.0.1:" + peer[i],
                        "--initial-cluster=" + String.join(",", cluster), "--initial-cluster-token=cn-auth",
                        "--peer-client-cert-auth", "--peer-trusted-ca-file=" + caFile,
                        "--peer-cert-file=" + dir.resolve("m" + i + ".pem"), "--peer-key-file=" + dir.resolve("m" + i + "-key.pem"),
                        "--peer-cert-allowed-cn=example.com"));
                members.add(LoggedProcess.start("m" + i, cmd, dir.resolve("m" + i + ".log"), null, Map.of()));
            }
            Path refused = dir.resolve("m2.log");
            Path refusing = dir.resolve("m0.log");
            Eventually.until("the refused member logs Go's text", Duration.ofSeconds(60), () ->
                    Files.readString(refused).contains("remote error: tls: bad certificate"));
            Eventually.until("a refusing member logs the rejected connection", Duration.ofSeconds(60), () ->
                    Files.readString(refusing).lines().anyMatch(l -> l.contains("\"msg\":\"rejected connection\"")
                            && l.contains("\"error\":\"client certificate authentication failed\"")));
            Eventually.until("the two others form the cluster", Duration.ofSeconds(60), () ->
                    Files.readString(refusing).contains("ready to serve client requests"));
            assertTrue(Files.readString(refusing).lines().noneMatch(l -> l.contains("bad certificate")),
                    "the refusing member was not refused");
        } finally {
            members.forEach(LoggedProcess::close);
        }
    }
}
