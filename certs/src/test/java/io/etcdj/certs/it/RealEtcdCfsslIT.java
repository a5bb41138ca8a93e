package io.etcdj.certs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.etcdj.certs.SelfSignedTls;
import io.etcdj.certs.TlsFiles;
import io.etcdj.certs.TlsPurpose;
import io.etcdj.certs.cfssl.CfsslSamples;
import io.etcdj.certs.cli.CliRun;
import io.etcdj.harness.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Certificates from cfssl-format inputs, and every key format we write, work with the real etcd. */
class RealEtcdCfsslIT {
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

    private void ok(CliRun run) {
        assertEquals(0, run.exitCode(), run.err());
    }

    @Test
    void cfsslFlowCertificatesAreAccepted() throws Exception {
        Files.writeString(dir.resolve("ca-csr.json"), CfsslSamples.CA_CSR);
        Files.writeString(dir.resolve("ca-config.json"), CfsslSamples.CA_CONFIG);
        Files.writeString(dir.resolve("req-csr.json"), CfsslSamples.REQ_CSR);
        Files.writeString(dir.resolve("client-csr.json"), "{\"CN\": \"root\", \"key\": {\"algo\": \"ecdsa\", \"size\": 256}}");
        ok(CliRun.of("gencert", "-initca", f("ca-csr.json"), "-bare", f("ca")));
        // The peer profile (server and client auth) serves the client port, as hack/tls-setup does.
        ok(CliRun.of("gencert", "-ca=" + f("ca.pem"), "-ca-key=" + f("ca-key.pem"), "-config=" + f("ca-config.json"),
                "-profile=peer", f("req-csr.json"), "-bare", f("infra0")));
        ok(CliRun.of("gencert", "-ca", f("ca.pem"), "-ca-key", f("ca-key.pem"), "-config", f("ca-config.json"),
                "-profile", "client", f("client-csr.json"), "-bare", f("client")));
        try (EtcdMember etcd = new EtcdMember("infra0", dir)) {
            etcd.flags("--cert-file", f("infra0.pem"), "--key-file", f("infra0-key.pem"),
                    "--client-cert-auth", "--trusted-ca-file", f("ca.pem"));
            etcd.start("infra0=" + etcd.peerUrl(false), false);
            List<String> tls = List.of("--cacert", f("ca.pem"), "--cert", f("client.pem"), "--key", f("client-key.pem"));
            etcd.awaitHealthy(tls, Duration.ofSeconds(30));
            assertEquals("OK", etcd.etcdctl(tls, "put", "k", "v").output().trim());
            assertEquals("k\nv", etcd.etcdctl(tls, "get", "k").output().trim());
        }
    }

    @Test
    void otherKeyFormatsAndSelfSignedAreAccepted() throws Exception {
        ok(CliRun.of("ca", "--out", dir.toString(), "--key-algo", "rsa", "--key-size", "2048", "--key-format", "traditional"));
        String[] ca = {"--ca-cert", f("ca.pem"), "--ca-key", f("ca-key.pem"), "--out", dir.toString()};
        ok(CliRun.of(concat(new String[] {"issue", "server", "--client-auth", "--cn", "s", "--hosts", "127.0.0.1",
                "--key-format", "traditional"}, ca)));
        ok(CliRun.of(concat(new String[] {"issue", "client", "--cn", "root", "--key-algo", "rsa", "--key-size", "2048"}, ca)));
        try (EtcdMember etcd = new EtcdMember("formats", dir)) {
            etcd.flags("--cert-file", f("s.pem"), "--key-file", f("s-key.pem"), "--client-cert-auth", "--trusted-ca-file", f("ca.pem"));
            etcd.start("formats=" + etcd.peerUrl(false), false);
            List<String> tls = List.of("--cacert", f("ca.pem"), "--cert", f("root.pem"), "--key", f("root-key.pem"));
            etcd.awaitHealthy(tls, Duration.ofSeconds(30));
            assertEquals("OK", etcd.etcdctl(tls, "put", "format", "rsa-pkcs8-client").output().trim());
        }
        // What --auto-tls will use: a self-signed certificate, trusted only when the client skips verification.
        TlsFiles self = SelfSignedTls.ensure(dir.resolve("fixtures/client"), List.of("127.0.0.1"), 1, TlsPurpose.SERVER);
        try (EtcdMember etcd = new EtcdMember("selfsigned", dir)) {
            etcd.flags("--cert-file", self.certFile().toString(), "--key-file", self.keyFile().toString());
            etcd.start("selfsigned=" + etcd.peerUrl(false), false);
            // etcdctl 3.4 needs --insecure-transport=false for TLS without any certificate flag.
            etcd.awaitHealthy(List.of("--insecure-transport=false", "--insecure-skip-tls-verify"), Duration.ofSeconds(30));
            ExternalCommand verified = etcd.etcdctl(List.of("--insecure-transport=false"), "get", "x");
            assertNotEquals(0, verified.exitCode(), verified.output());
            ExternalCommand pinned = etcd.etcdctl(List.of("--cacert", self.certFile().toString()), "put", "x", "y");
            assertEquals("OK", pinned.output().trim(), pinned.output());
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
