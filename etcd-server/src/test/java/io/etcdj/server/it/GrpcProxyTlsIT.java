package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.ClusterCertificates;
import io.etcdj.certs.ClusterTlsLayout;
import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import io.etcdj.harness.TempDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gRPC proxy's TLS flags on both sides, ours and etcd 3.4's: proxy A serves TLS and requires
 * client certificates (--cert-file, --key-file, --trusted-ca-file); proxy B reaches A over TLS
 * with a client certificate (--cacert, --cert, --key) and serves plain gRPC. The real etcdctl
 * works through B, and through A only with a certificate. The certificate for the cluster side
 * must have no CN (etcd refuses one with "cert has non empty Common Name").
 */
class GrpcProxyTlsIT {
    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void proxiesSpeakTlsOnBothSides(EtcdProcess.Binary binary) throws Exception {
        Path dir = TempDirs.create("etcd-proxy-tls-");
        try {
            ClusterTlsLayout pki = ClusterCertificates.forMembers(List.of(
                            new ClusterCertificates.Member("proxy", List.of("127.0.0.1", "localhost"))))
                    .client("root").writeTo(dir.resolve("pki"));
            TlsFiles server = pki.server("proxy");
            TlsFiles client = pki.client();
            // etcd's proxy dials with a certificate without CN (a CN would be the user of every request)
            Path anonymousCert = dir.resolve("anonymous.pem");
            Path anonymousKey = dir.resolve("anonymous-key.pem");
            CertificateAuthority.load(pki.caCertificate(), pki.caKey()).issue(CertificateRequest.client("").ip("127.0.0.1"))
                    .writePem(anonymousCert, anonymousKey);
            String ca = pki.caCertificate().toString();
            try (ProcessCluster cluster = ProcessCluster.start(binary, 1);
                 ProxyProcess a = ProxyProcess.start(binary, "grpc-proxy", "started gRPC proxy", List.of(),
                         "--endpoints=" + cluster.endpoints(), "--cert-file=" + server.certFile(),
                         "--key-file=" + server.keyFile(), "--trusted-ca-file=" + ca);
                 ProxyProcess b = ProxyProcess.start(binary, "grpc-proxy", "started gRPC proxy", List.of(),
                         "--endpoints=https://" + a.endpoint(), "--cacert=" + ca,
                         "--cert=" + anonymousCert, "--key=" + anonymousKey)) {
                Etcdctl plain = new Etcdctl(b.endpoint());
                assertEquals("OK\n", plain.run("put", "tls", "both-sides").ok().stdout());
                assertEquals("both-sides\n", plain.run("get", "tls", "--print-value-only").ok().stdout());

                Etcdctl withCert = new Etcdctl("https://" + a.endpoint());
                assertEquals("both-sides\n", withCert.run("--cacert=" + ca, "--cert=" + client.certFile(),
                        "--key=" + client.keyFile(), "get", "tls", "--print-value-only").ok().stdout());
                Etcdctl.Result noCert = withCert.run("--cacert=" + ca, "--command-timeout=3s", "get", "tls");
                assertNotEquals(0, noCert.exitCode(), noCert.toString());
            }
            // a client certificate with a CN is refused for the cluster side, as etcd 3.4 refuses it
            List<String> cmd = new ArrayList<>(binary == EtcdProcess.Binary.OURS
                    ? ServerCommand.ours().prefix(List.of()) : List.of(EtcdProcess.REAL_ETCD.toString()));
            cmd.addAll(List.of("grpc-proxy", "start", "--listen-addr=127.0.0.1:" + FreePorts.pick(),
                    "--endpoints=https://127.0.0.1:1", "--cacert=" + ca, "--cert=" + client.certFile(),
                    "--key=" + client.keyFile()));
            String out = TcpGatewayIT.run(cmd);
            assertEquals("exit 1", out.lines().findFirst().orElse(""), out);
            assertTrue(out.contains("cert has non empty Common Name (root)"), out);
        } finally {
            TempDirs.delete(dir);
        }
    }
}
