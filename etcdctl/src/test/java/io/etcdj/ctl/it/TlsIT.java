package io.etcdj.ctl.it;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** etcd with TLS and client-certificate auth: CA, client certificate, skip-verify, and a missing cert. */
class TlsIT {

    @TempDir
    static Path certDir;
    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("tls", TestCerts.create(certDir));
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static Differ.Result ours(List<String> flags, String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoints=" + etcd.endpoint(), "--command-timeout=2s"));
        all.addAll(flags);
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        return new Differ.Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code);
    }

    @Test
    void verifiesTheServerWithTheCaAndPresentsTheClientCertificate() {
        assertEquals(0, ours(etcd.tlsFlags(), "put", "tlskey", "secret").code());
        Differ.Result r = ours(etcd.tlsFlags(), "get", "tlskey");
        assertEquals("tlskey\nsecret\n", r.out(), r.toString());
    }

    @Test
    void skipVerifyNeedsNoCa() {
        TestCerts c = etcd.tls;
        Differ.Result r = ours(List.of("--insecure-skip-tls-verify", "--cert=" + c.clientCert(),
                "--key=" + c.clientKey()), "get", "nokey", "-w", "fields");
        assertEquals(0, r.code(), r.toString());
    }

    @Test
    void failsWithoutTheClientCertificate() {
        Differ.Result r = ours(List.of("--cacert=" + etcd.tls.caCert()), "get", "tlskey");
        assertNotEquals(0, r.code(), r.toString());
        assertEquals("", r.out());
    }
}
