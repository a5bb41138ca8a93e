package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECPrivateKeySpec;
import java.util.Base64;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PemFilesTest {
    private static final CertificateAuthority CA = CertificateAuthority.create("pem-ca");

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({
            "ECDSA, 256, PKCS8, PRIVATE KEY",
            "ECDSA, 384, TRADITIONAL, EC PRIVATE KEY",
            "ECDSA, 521, PKCS8, PRIVATE KEY",
            "RSA, 2048, PKCS8, PRIVATE KEY",
            "RSA, 2048, TRADITIONAL, RSA PRIVATE KEY"})
    void keyAndCertificateRoundTrip(KeySpec.Algorithm algorithm, int size, KeyFormat format, String pemType)
            throws Exception {
        IssuedCertificate issued = CA.issue(CertificateRequest.server("s").ip("127.0.0.1")
                .keySpec(new KeySpec(algorithm, size)));
        Path cert = dir.resolve("s.pem");
        Path key = dir.resolve("s-key.pem");
        issued.writePem(cert, key, format);
        assertTrue(Files.readString(key).startsWith("-----BEGIN " + pemType + "-----\n"), Files.readString(key));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(cert)));
        PrivateKey loaded = PemFiles.readPrivateKey(key);
        assertArrayEquals(issued.privateKey().getEncoded(), normalize(loaded).getEncoded());
        assertEquals(issued.certificate(), PemFiles.readCertificate(cert));
        IssuedCertificate again = IssuedCertificate.load(cert, key);
        assertEquals(issued.certificate(), again.certificate());
    }

    /** SEC 1 keys carry the public point; compare key material through a PKCS#8 re-encoding. */
    private static PrivateKey normalize(PrivateKey key) throws Exception {
        if (!key.getAlgorithm().equals("EC")) {
            return key;
        }
        return KeyFactory.getInstance("EC").generatePrivate(
                new ECPrivateKeySpec(((ECPrivateKey) key).getS(),
                        ((ECPrivateKey) key).getParams()));
    }

    @Test
    void traditionalEcKeyNamesItsCurve() throws Exception {
        IssuedCertificate issued = CA.issue(CertificateRequest.client("c"));
        String pem = issued.privateKeyPem(KeyFormat.TRADITIONAL);
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        // qualified: SEC 1's structure; ECPrivateKey here is the JDK's interface
        org.bouncycastle.asn1.sec.ECPrivateKey sec1 = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(der);
        // Go's x509.ParseECPrivateKey needs the curve inside the structure.
        assertEquals("1.2.840.10045.3.1.7", sec1.getParametersObject().toString());
        assertTrue(sec1.getPublicKey() != null);
    }

    @Test
    void chainFileHoldsSeveralCertificates() {
        IssuedCertificate issued = CA.issue(CertificateRequest.client("c"));
        Path chain = dir.resolve("chain.pem");
        PemFiles.writePublic(chain, PemFiles.certificatesPem(issued.chain()));
        assertEquals(issued.chain(), PemFiles.readCertificates(chain));
    }

    @Test
    void skipsOtherBlocksBeforeTheKey() throws Exception {
        IssuedCertificate issued = CA.issue(CertificateRequest.client("c"));
        Path key = dir.resolve("key.pem");
        // openssl ecparam -genkey writes EC PARAMETERS first; Go skips it, and so do we.
        Files.writeString(key, "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
                + issued.privateKeyPem(KeyFormat.TRADITIONAL));
        assertTrue(KeyMatch.matches(issued.certificate(), PemFiles.readPrivateKey(key)));
    }

    @Test
    void errorsNameTheFileWithGoTexts() throws Exception {
        Path missing = dir.resolve("missing.pem");
        assertEquals("open " + missing + ": no such file or directory",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readCertificate(missing)).getMessage());
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "not a certificate\n");
        assertEquals(garbage + ": tls: failed to find any PEM data in certificate input",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readCertificate(garbage)).getMessage());
        assertEquals(garbage + ": tls: failed to find any PEM data in key input",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readPrivateKey(garbage)).getMessage());
        Path certOnly = dir.resolve("cert.pem");
        Files.writeString(certOnly, CA.certificatePem());
        assertEquals(certOnly + ": tls: failed to find any PEM data in key input",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readPrivateKey(certOnly)).getMessage());
        assertEquals("read " + dir + ": is a directory",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readCertificate(dir)).getMessage());
        Path broken = dir.resolve("broken.pem");
        Files.writeString(broken, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        String message = assertThrows(TlsMaterialException.class, () -> PemFiles.readCertificate(broken)).getMessage();
        assertTrue(message.startsWith(broken + ": "), message);
        assertEquals(1, message.split(broken.toString(), -1).length - 1, "the file is named once: " + message);
    }

    @Test
    void encryptedKeysAreRefused() throws Exception {
        Path key = dir.resolve("enc.pem");
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(new JcaMiscPEMGenerator(CA.asIssued().keyPair(),
                    new JcePEMEncryptorBuilder("AES-128-CBC")
                            .setProvider(new BouncyCastleProvider()).build("secret".toCharArray())));
        }
        Files.writeString(key, text.toString());
        assertTrue(text.toString().contains("ENCRYPTED"));
        assertEquals(key + ": private key is encrypted; etcd needs an unencrypted key",
                assertThrows(TlsMaterialException.class, () -> PemFiles.readPrivateKey(key)).getMessage());
    }

    @Test
    void overwritingKeepsOwnerOnlyMode() throws Exception {
        Path key = dir.resolve("k.pem");
        Files.writeString(key, "old");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-rw-rw-"));
        PemFiles.writePrivate(key, CA.asIssued().privateKeyPem());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertEquals(List.of("k.pem"), Files.list(dir).map(p -> p.getFileName().toString()).toList(),
                "no temporary file is left behind");
    }
}
