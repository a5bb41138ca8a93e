package io.etcdj.certs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.cli.CliRun;
import io.etcdj.harness.Prerequisites;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real etcd 3.4 serves HTTPS with our certificates and enforces our client certificates. */
class RealEtcdClientTlsIT {
    @TempDir
    Path dir;

    @BeforeEach
    void needsEtcd() {
        Prerequisites.requireExecutable(ExternalCommand.ETCD, "etcd-server");
        Prerequisites.requireExecutable(ExternalCommand.ETCDCTL, "etcd-client");
    }

    private String f(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void clientCertAuthWithClusterCommandOutput() throws Exception {
        CliRun certs = CliRun.of("cluster", "--member", "infra0=127.0.0.1,localhost", "--client", "root", "--out", dir.toString());
        assertEquals(0, certs.exitCode(), certs.err());
        try (EtcdMember etcd = new EtcdMember("infra0", dir)) {
            etcd.flags("--cert-file", f("infra0.pem"), "--key-file", f("infra0-key.pem"),
                    "--client-cert-auth", "--trusted-ca-file", f("ca.pem"));
            etcd.start("infra0=" + etcd.peerUrl(false), false);
            List<String> withCert = List.of("--cacert", f("ca.pem"), "--cert", f("client.pem"), "--key", f("client-key.pem"));
            etcd.awaitHealthy(withCert, Duration.ofSeconds(30));

            ExternalCommand put = etcd.etcdctl(withCert, "put", "foo", "bar");
            assertEquals(0, put.exitCode(), put.output());
            assertEquals("OK", put.output().trim());
            ExternalCommand get = etcd.etcdctl(withCert, "get", "foo");
            assertEquals("foo\nbar", get.output().trim());

            ExternalCommand withoutCert = etcd.etcdctl(List.of("--cacert", f("ca.pem")), "get", "foo");
            assertNotEquals(0, withoutCert.exitCode(), withoutCert.output());
            ExternalCommand wrongCa = etcd.etcdctl(List.of("--cert", f("client.pem"), "--key", f("client-key.pem")), "get", "foo");
            assertNotEquals(0, wrongCa.exitCode(), "the server certificate must not verify against the system roots");

            Path curl = ExternalCommand.curl();
            ExternalCommand health = ExternalCommand.run(List.of(curl.toString(), "-sS", "--cacert", f("ca.pem"),
                    "--cert", f("client.pem"), "--key", f("client-key.pem"), etcd.clientUrl() + "/health"), Duration.ofSeconds(15));
            assertEquals(0, health.exitCode(), health.output());
            assertTrue(health.output().contains("\"health\":\"true\""), health.output());
            // The JSON gateway dials the member itself with --cert-file: this needs client auth in it.
            ExternalCommand range = ExternalCommand.run(List.of(curl.toString(), "-sS", "--cacert", f("ca.pem"),
                    "--cert", f("client.pem"), "--key", f("client-key.pem"), etcd.clientUrl() + "/v3/kv/range",
                    "-d", "{\"key\":\"Zm9v\"}"), Duration.ofSeconds(15));
            assertTrue(range.output().contains("\"value\":\"YmFy\""), range.output());
            ExternalCommand refused = ExternalCommand.run(List.of(curl.toString(), "-sS", "--cacert", f("ca.pem"),
                    etcd.clientUrl() + "/health"), Duration.ofSeconds(15));
            assertNotEquals(0, refused.exitCode(), refused.output());
        }
    }
}
