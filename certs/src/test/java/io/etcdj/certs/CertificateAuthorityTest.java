package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {
    private static final CertificateAuthority CA = CertificateAuthority.create("test-ca");

    @Test
    void caCertificateMaySignAndIsSelfSigned() throws Exception {
        X509Certificate ca = CA.certificate();
        CertificateDetails details = CertificateDetails.of(ca);
        assertTrue(details.certificateAuthority());
        assertEquals(List.of(KeyUsage.KEY_CERT_SIGN, KeyUsage.CRL_SIGN), details.keyUsages());
        assertEquals(List.of(), details.extendedKeyUsages());
        assertEquals("CN=test-ca", details.subject());
        assertEquals(details.subject(), details.issuer());
        ca.verify(ca.getPublicKey());
        assertTrue(ca.getCriticalExtensionOIDs().contains("2.5.29.19"), "basic constraints must be critical");
        assertEquals("ECDSA P-256", details.publicKey());
    }

    @Test
    void serverCertificateHasServerAuthAndSans() {
        IssuedCertificate server = CA.issue(CertificateRequest.server("infra0").ip("127.0.0.1").dns("localhost")
                .ip("::1").validity(Duration.ofDays(30)));
        CertificateDetails details = CertificateDetails.of(server.certificate());
        assertEquals(List.of("server auth"), details.extendedKeyUsages());
        assertEquals(List.of(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT), details.keyUsages());
        assertEquals(List.of("localhost"), details.dnsNames());
        assertEquals(List.of("127.0.0.1", "0:0:0:0:0:0:0:1"), details.ipAddresses());
        assertFalse(details.certificateAuthority());
        assertEquals("infra0", details.commonName());
        assertEquals("CN=test-ca", details.issuer());
        Duration lifetime = Duration.between(details.notBefore(), details.notAfter());
        assertEquals(Duration.ofDays(30), lifetime);
        assertTrue(details.coversHost("127.0.0.1"));
        assertTrue(details.coversHost("[::1]"));
        assertTrue(details.coversHost("LOCALHOST"));
        assertFalse(details.coversHost("10.0.0.1"));
        assertFalse(details.coversHost("infra0"), "the common name is not a host name (Go 1.15+)");
    }

    @Test
    void peerAndClientUsages() {
        CertificateDetails peer = CertificateDetails.of(CA.issue(CertificateRequest.peer("infra1").ip("127.0.0.1")).certificate());
        CertificateDetails client = CertificateDetails.of(CA.issue(CertificateRequest.client("root")).certificate());
        assertEquals(List.of("server auth", "client auth"), peer.extendedKeyUsages());
        assertTrue(peer.allows(ExtendedKeyUsage.CLIENT_AUTH) && peer.allows(ExtendedKeyUsage.SERVER_AUTH));
        assertEquals(List.of("client auth"), client.extendedKeyUsages());
        assertFalse(client.allows(ExtendedKeyUsage.SERVER_AUTH));
        assertEquals("root", client.commonName());
        IssuedCertificate tricky = CA.issue(CertificateRequest.client("user, with comma").name(SubjectName.organization("O")));
        assertEquals("user, with comma", CertificateDetails.of(tricky.certificate()).commonName());
        assertEquals(List.of(), client.dnsNames());
    }

    @Test
    void keyAlgorithms() {
        IssuedCertificate rsa = CA.issue(CertificateRequest.client("r").keySpec(KeySpec.RSA_2048));
        assertTrue(rsa.certificate().getPublicKey() instanceof RSAPublicKey key && key.getModulus().bitLength() == 2048);
        IssuedCertificate p384 = CA.issue(CertificateRequest.client("e").keySpec(KeySpec.ECDSA_P384));
        assertTrue(p384.certificate().getPublicKey() instanceof ECPublicKey);
        assertEquals("ECDSA P-384", CertificateDetails.of(p384.certificate()).publicKey());
        // The CA's key signs, whatever the leaf's key is.
        assertEquals("SHA256withECDSA", rsa.certificate().getSigAlgName());
        CertificateAuthority rsaCa = CertificateAuthority.create(CertificateRequest.ca("rsa-ca").keySpec(KeySpec.RSA_2048));
        assertEquals("SHA256withRSA", rsaCa.issue(CertificateRequest.server("s")).certificate().getSigAlgName());
        assertThrows(IllegalArgumentException.class, () -> KeySpec.of("ecdsa", 1024));
        assertThrows(IllegalArgumentException.class, () -> KeySpec.of("rsa", 1024));
        assertThrows(IllegalArgumentException.class, () -> KeySpec.of("dsa", 2048));
    }

    @Test
    void chainValidatesWithPkixAndOtherCaIsRejected() {
        IssuedCertificate server = CA.issue(CertificateRequest.server("s").ip("127.0.0.1"));
        assertTrue(ChainValidator.validate(server.chain(), List.of(CA.certificate()), Instant.now()).valid());
        CertificateAuthority other = CertificateAuthority.create("other-ca");
        ChainValidator.Result result = ChainValidator.validate(List.of(server.certificate()), List.of(other.certificate()),
                Instant.now());
        assertFalse(result.valid());
        assertEquals("x509: certificate signed by unknown authority", result.problem());
    }

    @Test
    void expiredCertificateIsDetected() {
        Instant longAgo = Instant.now().minus(Duration.ofDays(400));
        CertificateAuthority oldCa = CertificateAuthority.create(CertificateRequest.ca("old").notBefore(longAgo));
        IssuedCertificate expired = oldCa.issue(CertificateRequest.server("s").notBefore(longAgo).validity(Duration.ofDays(10)));
        ChainValidator.Result result = ChainValidator.validate(expired.chain(), List.of(oldCa.certificate()), Instant.now());
        assertFalse(result.valid());
        assertTrue(result.problem().startsWith("x509: certificate has expired or is not yet valid: current time "),
                result.problem());
    }

    @Test
    void leafNeverOutlivesItsCa() {
        CertificateAuthority shortCa = CertificateAuthority.create(CertificateRequest.ca("short").validity(Duration.ofDays(10)));
        X509Certificate leaf = shortCa.issue(CertificateRequest.server("s").validityYears(5)).certificate();
        assertEquals(shortCa.certificate().getNotAfter(), leaf.getNotAfter());
    }

    @Test
    void issuingUsesTheInjectedClock() {
        Instant then = Instant.parse("2030-01-01T00:00:00Z");
        CertificateAuthority ca = CertificateAuthority.create(CertificateRequest.ca("future").notBefore(then.minusSeconds(3600)));
        X509Certificate leaf = ca.withClock(Clock.fixed(then, ZoneOffset.UTC)).issue(CertificateRequest.client("c")).certificate();
        assertEquals(then.minus(CertificateSigner.BACKDATE), leaf.getNotBefore().toInstant());
    }

    @Test
    void serialNumbersDiffer() {
        X509Certificate a = CA.issue(CertificateRequest.client("a")).certificate();
        X509Certificate b = CA.issue(CertificateRequest.client("a")).certificate();
        assertNotEquals(a.getSerialNumber(), b.getSerialNumber());
    }

    @Test
    void requestRejectsBadHosts() {
        assertThrows(IllegalArgumentException.class, () -> CertificateRequest.server("s").ip("300.1.1.1"));
        assertThrows(IllegalArgumentException.class, () -> CertificateRequest.server("s").dns("bad host"));
        CertificateRequest request = CertificateRequest.server("s").hosts(List.of("10.0.1.10", "*.example.com", "a@b.c", "::1"));
        assertEquals(List.of("10.0.1.10", "::1"), request.ipAddresses());
        assertEquals(List.of("*.example.com"), request.dnsNames());
        assertEquals(List.of("a@b.c"), request.emailAddresses());
        CertificateDetails details = CertificateDetails.of(CA.issue(request).certificate());
        assertTrue(details.coversHost("infra0.example.com"));
        assertFalse(details.coversHost("a.b.example.com"), "a wildcard covers one label");
    }

    @Test
    void loadRefusesNonCaAndExpiredCa(@TempDir Path dir) {
        IssuedCertificate leaf = CA.issue(CertificateRequest.server("s"));
        leaf.writePem(dir.resolve("s.pem"), dir.resolve("s-key.pem"));
        TlsMaterialException notCa = assertThrows(TlsMaterialException.class,
                () -> CertificateAuthority.load(dir.resolve("s.pem"), dir.resolve("s-key.pem")));
        assertEquals(dir.resolve("s.pem") + ": not a CA certificate (basic constraints CA:FALSE)", notCa.getMessage());
        CertificateAuthority.create(CertificateRequest.ca("old").notBefore(Instant.now().minus(Duration.ofDays(20)))
                .validity(Duration.ofDays(10))).writePem(dir.resolve("old.pem"), dir.resolve("old-key.pem"));
        TlsMaterialException expired = assertThrows(TlsMaterialException.class,
                () -> CertificateAuthority.load(dir.resolve("old.pem"), dir.resolve("old-key.pem")));
        assertTrue(expired.getMessage().contains("x509: certificate has expired"), expired.getMessage());
    }
}
