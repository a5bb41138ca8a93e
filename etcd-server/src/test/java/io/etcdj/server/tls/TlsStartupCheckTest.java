package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.TlsFiles;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.log.LogSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up check: which files are used, and the one-line errors for bad ones. */
class TlsStartupCheckTest {
    @TempDir
    static Path shared;
    static TlsFixture pki;

    @TempDir
    Path dataDir;

    @BeforeAll
    static void certificates() throws Exception {
        pki = TlsFixture.create(shared.resolve("pki"));
    }

    /** One member with https client and peer URLs on 127.0.0.1 (nothing listens in these tests). */
    private Map<String, String> flags(boolean httpsClient, boolean httpsPeer) {
        String client = (httpsClient ? "https" : "http") + "://127.0.0.1:2379";
        String peer = (httpsPeer ? "https" : "http") + "://127.0.0.1:2380";
        Map<String, String> f = new LinkedHashMap<>();
        f.put("name", "infra0");
        f.put("data-dir", dataDir.toString());
        f.put("listen-client-urls", client);
        f.put("advertise-client-urls", client);
        f.put("listen-peer-urls", peer);
        f.put("initial-advertise-peer-urls", peer);
        f.put("initial-cluster", "infra0=" + peer);
        return f;
    }

    private static void server(Map<String, String> f, TlsFiles files) {
        f.put("cert-file", files.certFile().toString());
        f.put("key-file", files.keyFile().toString());
    }

    private static void peer(Map<String, String> f, TlsFiles files, Path ca) {
        f.put("peer-cert-file", files.certFile().toString());
        f.put("peer-key-file", files.keyFile().toString());
        f.put("peer-trusted-ca-file", ca.toString());
        f.put("peer-client-cert-auth", "true");
    }

    private static MemberTls run(Map<String, String> f) throws ConfigException {
        return new TlsStartupCheck(ServerConfig.from(f), Clock.systemUTC(), LogSink.stderr()).run();
    }

    private static String failure(Map<String, String> f) {
        return assertThrows(ConfigException.class, () -> run(f)).getMessage();
    }

    @Test
    void clientCertPairIsCheckedAtStartUp() throws Exception {
        Map<String, String> f = flags(true, false);
        server(f, pki.layout.server("infra0"));
        f.put("client-cert-file", pki.layout.client().certFile().toString());
        f.put("client-key-file", pki.layout.client().keyFile().toString());
        assertNotNull(run(f).clientPort());
        f.put("client-key-file", dataDir.resolve("missing-key.pem").toString());
        String missing = failure(f);
        assertTrue(missing.contains("missing-key.pem"), missing);
        f.remove("client-key-file");
        assertEquals("KeyFile and CertFile must both be present[key: , cert: " + pki.layout.client().certFile() + "]", failure(f));
    }

    @Test
    void validServerCertificateGivesAClientPortContextOnly() throws Exception {
        Map<String, String> f = flags(true, false);
        server(f, pki.layout.server("infra0"));
        f.put("client-cert-auth", "true");
        f.put("trusted-ca-file", pki.ca().toString());
        MemberTls tls = run(f);
        assertNotNull(tls.clientPort());
        assertTrue(tls.clientPort().isServer());
        assertNull(tls.peerServer());
    }

    @Test
    void validPeerCertificatesGivePeerServerAndClientContexts() throws Exception {
        Map<String, String> f = flags(false, true);
        peer(f, pki.layout.peer("infra0"), pki.ca());
        MemberTls tls = run(f);
        assertNull(tls.clientPort());
        assertTrue(tls.peerServer().isServer());
        assertTrue(tls.peerClient().isClient());
    }

    @Test
    void missingCertificateFileIsNamed() {
        Map<String, String> f = flags(true, false);
        Path missing = pki.dir.resolve("nope.pem");
        f.put("cert-file", missing.toString());
        f.put("key-file", pki.layout.server("infra0").keyFile().toString());
        assertEquals("open " + missing + ": no such file or directory", failure(f));
    }

    @Test
    void unreadableTrustedCaFileIsNamed() throws Exception {
        Map<String, String> f = flags(true, false);
        server(f, pki.layout.server("infra0"));
        Path junk = Files.writeString(pki.dir.resolve("junk-ca.pem"), "not a certificate\n");
        f.put("trusted-ca-file", junk.toString());
        String message = failure(f);
        assertTrue(message.startsWith(junk.toString()) && message.contains("failed to find any PEM data"), message);
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        Map<String, String> f = flags(true, false);
        f.put("cert-file", pki.layout.server("infra0").certFile().toString());
        f.put("key-file", pki.layout.server("infra1").keyFile().toString());
        String message = failure(f);
        assertTrue(message.contains("tls: private key does not match public key"), message);
        assertTrue(message.contains("infra1-key.pem") && message.contains("infra0.pem"), message);
    }

    @Test
    void expiredCertificateIsRefused() {
        Map<String, String> f = flags(true, false);
        server(f, pki.expiredServer);
        String message = failure(f);
        assertTrue(message.startsWith(pki.expiredServer.certFile() + ": x509: certificate has expired or is not yet valid"),
                message);
    }

    /** etcd starts with it (it never dials its own client URLs): CertificateForAnotherHostIT compares. */
    @Test
    void certificateForAnotherAddressStillServes() throws Exception {
        Map<String, String> f = flags(true, false);
        server(f, pki.otherHostServer);
        MemberTls tls = run(f);
        assertNotNull(tls.clientPort());
    }

    @Test
    void clientCertificateCannotServe() {
        Map<String, String> f = flags(true, false);
        server(f, pki.layout.client());
        String message = failure(f);
        assertTrue(message.startsWith(pki.layout.client().certFile()
                + ": x509: certificate specifies an incompatible key usage: server use needs \"server auth\""), message);
    }

    @Test
    void peerCertificateFromAnotherCaIsRefused() {
        Map<String, String> f = flags(false, true);
        peer(f, pki.roguePeer, pki.ca());
        String message = failure(f);
        assertTrue(message.startsWith(pki.roguePeer.certFile() + ": x509: certificate signed by unknown authority"), message);
        assertTrue(message.contains(pki.ca().toString()), message);
    }

    @Test
    void httpsClientUrlWithoutCertificateUsesEtcdsText() {
        assertEquals("TLS key/cert (--cert-file, --key-file) must be provided for client url https://127.0.0.1:2379 "
                + "with HTTPS scheme", failure(flags(true, false)));
    }

    @Test
    void httpsPeerUrlWithoutCertificateUsesEtcdsText() {
        assertEquals("cannot listen on TLS for 127.0.0.1:2380: KeyFile and CertFile are not presented",
                failure(flags(false, true)));
    }

    @Test
    void certificateWithoutKeyUsesEtcdsText() {
        Map<String, String> f = flags(true, false);
        f.put("cert-file", pki.layout.server("infra0").certFile().toString());
        assertEquals("KeyFile and CertFile must both be present[key: , cert: " + pki.layout.server("infra0").certFile()
                + "]", failure(f));
    }

    @Test
    void httpUrlsIgnoreGivenCertificates() throws Exception {
        Map<String, String> f = flags(false, false);
        server(f, pki.layout.server("infra0"));
        MemberTls tls = run(f);
        assertNull(tls.clientPort());
        assertNull(tls.peerServer());
    }

    @Test
    void autoTlsWritesSelfSignedFixturesAndReusesThem() throws Exception {
        Map<String, String> f = flags(true, true);
        f.put("auto-tls", "true");
        f.put("peer-auto-tls", "true");
        MemberTls tls = run(f);
        assertNotNull(tls.clientPort());
        assertNotNull(tls.peerServer());
        Path clientCert = dataDir.resolve("fixtures/client/cert.pem");
        Path peerCert = dataDir.resolve("fixtures/peer/cert.pem");
        assertTrue(Files.exists(dataDir.resolve("fixtures/client/key.pem")));
        assertTrue(Files.exists(dataDir.resolve("fixtures/peer/key.pem")));
        byte[] before = Files.readAllBytes(clientCert);
        byte[] peerBefore = Files.readAllBytes(peerCert);
        run(f);
        assertArrayEquals(before, Files.readAllBytes(clientCert), "an existing auto TLS certificate is reused");
        assertArrayEquals(peerBefore, Files.readAllBytes(peerCert));
    }

    @Test
    void givenCertificatesWinOverAutoTls() throws Exception {
        Map<String, String> f = flags(true, false);
        server(f, pki.layout.server("infra0"));
        f.put("auto-tls", "true");
        run(f);
        assertTrue(Files.notExists(dataDir.resolve("fixtures/client")));
    }
}
