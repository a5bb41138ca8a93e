package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.Command;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The etcd command with bad TLS material, as a process: exit code 1, one "etcd: ..." line naming
 * the file, and no Java stack trace.
 */
class StartupErrorsIT {
    @TempDir
    static Path dir;
    static TlsFixture pki;

    @BeforeAll
    static void certificates() throws Exception {
        pki = TlsFixture.create(dir.resolve("pki"));
    }

    private record Outcome(int exitCode, String output) {
    }

    private static Outcome etcd(String name, String... tlsFlags) throws Exception {
        Path target = Path.of(System.getProperty("user.dir"), "target");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-cp", target.resolve("classes") + File.pathSeparator + target.resolve("lib") + "/*",
                "io.etcdj.server.Main", "--name", name, "--data-dir", dir.resolve(name).toString(),
                // port 1 is never bound: the check must stop the member before it listens
                "--listen-client-urls", "https://127.0.0.1:1", "--advertise-client-urls", "https://127.0.0.1:1",
                "--listen-peer-urls", "https://127.0.0.1:2", "--initial-advertise-peer-urls", "https://127.0.0.1:2",
                "--initial-cluster", name + "=https://127.0.0.1:2"));
        cmd.addAll(List.of(tlsFlags));
        Command.Result r = Command.of(cmd).mergeStderr().run();
        return new Outcome(r.exitCode(), r.stdout());
    }

    private static String[] peerFlags(TlsFiles peer) {
        return new String[] {"--peer-cert-file", peer.certFile().toString(), "--peer-key-file", peer.keyFile().toString(),
                "--peer-trusted-ca-file", pki.ca().toString(), "--peer-client-cert-auth"};
    }

    private static String[] join(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static void assertOneLine(Outcome o, String expectedLine) {
        assertEquals(1, o.exitCode(), o.output());
        assertTrue(o.output().lines().anyMatch(expectedLine::equals), "expected line \"" + expectedLine + "\" in:\n" + o.output());
        assertFalse(o.output().contains("Exception") || o.output().contains("\tat "), "no stack trace:\n" + o.output());
    }

    @Test
    void missingCertificateFile() throws Exception {
        Path missing = dir.resolve("missing.pem");
        TlsFiles server = pki.layout.server("infra0");
        Outcome o = etcd("missing", join(peerFlags(pki.layout.peer("infra0")),
                "--cert-file", missing.toString(), "--key-file", server.keyFile().toString()));
        assertOneLine(o, "etcd: open " + missing + ": no such file or directory");
    }

    @Test
    void expiredServerCertificate() throws Exception {
        Outcome o = etcd("expired", join(peerFlags(pki.layout.peer("infra0")),
                "--cert-file", pki.expiredServer.certFile().toString(), "--key-file", pki.expiredServer.keyFile().toString()));
        assertEquals(1, o.exitCode(), o.output());
        assertOneLine(o, o.output().lines().filter(l -> l.startsWith("etcd: " + pki.expiredServer.certFile()
                + ": x509: certificate has expired or is not yet valid")).findFirst().orElse("(missing)"));
    }

    @Test
    void peerCertificateFromAnotherCa() throws Exception {
        TlsFiles server = pki.layout.server("infra0");
        Outcome o = etcd("rogue", join(peerFlags(pki.roguePeer),
                "--cert-file", server.certFile().toString(), "--key-file", server.keyFile().toString()));
        assertOneLine(o, o.output().lines().filter(l -> l.startsWith("etcd: " + pki.roguePeer.certFile()
                + ": x509: certificate signed by unknown authority")).findFirst().orElse("(missing)"));
    }
}
