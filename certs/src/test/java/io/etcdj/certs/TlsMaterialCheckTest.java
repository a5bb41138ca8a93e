package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialCheckTest {
    @TempDir
    Path dir;

    private CertificateAuthority ca;
    private TlsFiles server;

    @BeforeEach
    void writeMaterial() {
        ca = CertificateAuthority.create("check-ca");
        ca.writePem(dir.resolve("ca.pem"), dir.resolve("ca-key.pem"));
        ca.issue(CertificateRequest.server("infra0").ip("127.0.0.1").dns("localhost"))
                .writePem(dir.resolve("server.pem"), dir.resolve("server-key.pem"));
        server = new TlsFiles(dir.resolve("server.pem"), dir.resolve("server-key.pem"), dir.resolve("ca.pem"));
    }

    private String failure(TlsMaterialCheck check) {
        return assertThrows(TlsMaterialException.class, check::check).getMessage();
    }

    @Test
    void goodMaterialPasses() {
        CheckedTlsMaterial material = TlsMaterialCheck.of(server).purpose(TlsPurpose.SERVER)
                .hosts(List.of("127.0.0.1", "localhost")).requireSignedByTrustedCa(true).check();
        assertEquals(List.of(ca.certificate()), material.trustedCertificates());
        assertEquals(List.of(), material.warnings());
        assertTrue(KeyMatch.matches(material.certificate(), material.privateKey()));
    }

    @Test
    void keyThatDoesNotMatch() {
        ca.issue(CertificateRequest.server("x")).writePem(dir.resolve("x.pem"), dir.resolve("x-key.pem"));
        TlsFiles files = new TlsFiles(dir.resolve("server.pem"), dir.resolve("x-key.pem"), null);
        assertEquals(dir.resolve("x-key.pem") + ": tls: private key does not match public key in " + dir.resolve("server.pem"),
                failure(TlsMaterialCheck.of(files)));
    }

    @Test
    void missingFiles() {
        TlsFiles files = new TlsFiles(dir.resolve("server.pem"), dir.resolve("server-key.pem"), dir.resolve("nope.pem"));
        assertEquals("open " + dir.resolve("nope.pem") + ": no such file or directory", failure(TlsMaterialCheck.of(files)));
        assertThrows(CertsException.class, () -> new TlsFiles(dir.resolve("server.pem"), null, null));
    }

    @Test
    void expiredCertificate() {
        Instant later = Instant.now().plus(Duration.ofDays(400));
        String message = failure(TlsMaterialCheck.of(server).clock(Clock.fixed(later, ZoneOffset.UTC)));
        assertTrue(message.startsWith(dir.resolve("server.pem") + ": x509: certificate has expired or is not yet valid: current time "
                + later + " is after "), message);
    }

    @Test
    void expiringSoonIsAWarning() {
        Instant soon = Instant.now().plus(Duration.ofDays(350));
        CheckedTlsMaterial material = TlsMaterialCheck.of(server).clock(Clock.fixed(soon, ZoneOffset.UTC)).check();
        assertEquals(1, material.warnings().size(), material.warnings().toString());
        assertTrue(material.warnings().get(0).startsWith(dir.resolve("server.pem") + ": certificate expires in 14 days"),
                material.warnings().get(0));
    }

    @Test
    void missingHostName() {
        assertEquals(dir.resolve("server.pem") + ": x509: certificate is valid for localhost, 127.0.0.1, not 10.0.1.10",
                failure(TlsMaterialCheck.of(server).hosts(List.of("10.0.1.10"))));
        ca.issue(CertificateRequest.server("bare")).writePem(dir.resolve("bare.pem"), dir.resolve("bare-key.pem"));
        TlsFiles bare = new TlsFiles(dir.resolve("bare.pem"), dir.resolve("bare-key.pem"), null);
        assertEquals(dir.resolve("bare.pem") + ": x509: certificate is not valid for any names, but wanted to match 127.0.0.1",
                failure(TlsMaterialCheck.of(bare).hosts(List.of("127.0.0.1"))));
    }

    @Test
    void wrongUsage() {
        assertEquals(dir.resolve("server.pem") + ": x509: certificate specifies an incompatible key usage: "
                + "peer use needs \"client auth\", certificate has [\"server auth\"]",
                failure(TlsMaterialCheck.of(server).purpose(TlsPurpose.PEER)));
    }

    @Test
    void certificateFromAnotherCa() {
        CertificateAuthority.create("other").writePem(dir.resolve("other.pem"), dir.resolve("other-key.pem"));
        TlsFiles files = new TlsFiles(server.certFile(), server.keyFile(), dir.resolve("other.pem"));
        assertEquals(dir.resolve("server.pem") + ": x509: certificate signed by unknown authority (trusted CA file "
                + dir.resolve("other.pem") + ")", failure(TlsMaterialCheck.of(files).requireSignedByTrustedCa(true)));
        // A member's trusted CA is for its clients; by default its own issuer is not required to be in it.
        TlsMaterialCheck.of(files).check();
    }
}
