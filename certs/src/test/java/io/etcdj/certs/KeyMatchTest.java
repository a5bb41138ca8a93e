package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyMatchTest {
    private static final CertificateAuthority CA = CertificateAuthority.create("match-ca");

    @Test
    void matchingAndMismatchedKeys() {
        IssuedCertificate ec1 = CA.issue(CertificateRequest.client("a"));
        IssuedCertificate ec2 = CA.issue(CertificateRequest.client("b"));
        IssuedCertificate rsa1 = CA.issue(CertificateRequest.client("c").keySpec(KeySpec.RSA_2048));
        IssuedCertificate rsa2 = CA.issue(CertificateRequest.client("d").keySpec(KeySpec.RSA_2048));
        IssuedCertificate p384 = CA.issue(CertificateRequest.client("e").keySpec(KeySpec.ECDSA_P384));
        assertTrue(KeyMatch.matches(ec1.certificate(), ec1.privateKey()));
        assertTrue(KeyMatch.matches(rsa1.certificate(), rsa1.privateKey()));
        assertTrue(KeyMatch.matches(p384.certificate(), p384.privateKey()));
        assertFalse(KeyMatch.matches(ec1.certificate(), ec2.privateKey()));
        assertFalse(KeyMatch.matches(rsa1.certificate(), rsa2.privateKey()));
        assertFalse(KeyMatch.matches(ec1.certificate(), rsa1.privateKey()));
        assertFalse(KeyMatch.matches(rsa1.certificate(), ec1.privateKey()));
        assertFalse(KeyMatch.matches(ec1.certificate(), p384.privateKey()));
    }

    @Test
    void loadingAMismatchedPairNamesBothFiles(@TempDir Path dir) {
        IssuedCertificate a = CA.issue(CertificateRequest.client("a"));
        IssuedCertificate b = CA.issue(CertificateRequest.client("b"));
        a.writePem(dir.resolve("a.pem"), dir.resolve("a-key.pem"));
        b.writePem(dir.resolve("b.pem"), dir.resolve("b-key.pem"));
        TlsMaterialException e = assertThrows(TlsMaterialException.class,
                () -> IssuedCertificate.load(dir.resolve("a.pem"), dir.resolve("b-key.pem")));
        assertEquals(dir.resolve("b-key.pem") + ": tls: private key does not match public key in " + dir.resolve("a.pem"),
                e.getMessage());
        assertEquals(dir.resolve("b-key.pem"), e.file());
    }
}
