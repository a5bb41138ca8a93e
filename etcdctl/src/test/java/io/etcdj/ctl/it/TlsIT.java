package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.harness.Command;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** The real etcdctl with the same flags and arguments. */
    private static Differ.Result real(List<String> flags, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/etcdctl", "--endpoints=" + etcd.endpoint(), "--command-timeout=2s"));
        cmd.addAll(flags);
        cmd.addAll(List.of(args));
        Command.Result r = RealEtcd.realEtcdctl(cmd).run();
        return new Differ.Result(r.stdout(), r.stderr(), r.exitCode());
    }

    private static void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/openssl"));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).dir(certDir).mergeStderr().run();
        assertEquals(0, r.exitCode(), r.stdout());
    }

    /** A client certificate whose key openssl writes in {@code form}: pkcs1, sec1, pkcs8 or encrypted. */
    private static List<String> clientWithKey(String form) throws Exception {
        String key = certDir.resolve("key-" + form + ".pem").toString();
        switch (form) {
            case "pkcs1" -> {
                openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key + ".p8");
                openssl("rsa", "-traditional", "-in", key + ".p8", "-out", key);
            }
            case "sec1" -> openssl("ecparam", "-name", "prime256v1", "-genkey", "-out", key);
            case "pkcs8" -> openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", key);
            default -> openssl("genpkey", "-algorithm", "RSA", "-aes256", "-pass", "pass:x", "-out", key);
        }
        String cert = certDir.resolve("cert-" + form + ".pem").toString();
        Files.writeString(certDir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        String signing = form.equals("encrypted") ? certDir.resolve("key-pkcs1.pem").toString() : key;
        openssl("req", "-new", "-key", signing, "-subj", "/CN=" + form, "-out", certDir.resolve(form + ".csr").toString());
        openssl("x509", "-req", "-in", certDir.resolve(form + ".csr").toString(), "-CA", etcd.tls.caCert().toString(),
                "-CAkey", certDir.resolve("ca-key.pem").toString(), "-CAcreateserial", "-days", "2",
                "-extfile", certDir.resolve("client.ext").toString(), "-out", cert);
        return List.of("--cacert=" + etcd.tls.caCert(), "--cert=" + cert, "--key=" + key);
    }

    /** PKCS#1 RSA and SEC1 EC keys (openssl's and cfssl's defaults), PKCS#8, and an encrypted key, as the real etcdctl takes them. */
    @Test
    void everyKeyFormAsTheRealEtcdctl() throws Exception {
        for (String form : List.of("pkcs1", "sec1", "pkcs8", "encrypted")) {
            List<String> flags = clientWithKey(form);
            Differ.Result want = real(flags, "put", "key-" + form, "v");
            Differ.Result got = ours(flags, "put", "key-" + form, "v");
            assertEquals(want.toString(), got.toString(), form);
            assertEquals(form.equals("encrypted") ? 128 : 0, got.code(), form + ": " + got);
        }
        List<String> mismatched = new ArrayList<>(clientWithKey("sec1"));
        mismatched.set(2, "--key=" + certDir.resolve("key-pkcs1.pem"));
        assertEquals(real(mismatched, "get", "x").toString(), ours(mismatched, "get", "x").toString(), "key of another type");
        List<String> missing = List.of("--cacert=" + certDir.resolve("nope.pem"));
        assertEquals(real(missing, "get", "x").toString(), ours(missing, "get", "x").toString(), "missing CA file");
    }
}
