package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelfSignedTlsTest {
    @TempDir
    Path dir;

    @Test
    void makesWhatEtcdAutoTlsMakes() throws Exception {
        TlsFiles files = SelfSignedTls.ensure(dir.resolve("fixtures/client"),
                List.of("https://127.0.0.1:2379", "localhost:2379", "[::1]:2379"), 2, TlsPurpose.SERVER);
        assertEquals(dir.resolve("fixtures/client/cert.pem"), files.certFile());
        assertTrue(Files.readString(files.keyFile()).startsWith("-----BEGIN EC PRIVATE KEY-----"));
        CertificateDetails details = CertificateDetails.of(files.certificateChain().get(0));
        assertEquals("O=etcd", details.subject());
        assertEquals(details.subject(), details.issuer());
        assertEquals("ECDSA P-521", details.publicKey());
        assertEquals(List.of("server auth"), details.extendedKeyUsages());
        assertEquals(List.of(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT), details.keyUsages());
        assertEquals(List.of("127.0.0.1", "0:0:0:0:0:0:0:1"), details.ipAddresses());
        assertEquals(List.of("localhost"), details.dnsNames());
        assertEquals(Duration.ofDays(730), Duration.between(details.notBefore(), details.notAfter()));
        TlsMaterialCheck.of(files).purpose(TlsPurpose.SERVER).hosts(List.of("127.0.0.1")).check();
    }

    @Test
    void peerCertificatesCanDialAndExistingFilesAreKept() throws Exception {
        Path peerDir = dir.resolve("fixtures/peer");
        TlsFiles first = SelfSignedTls.ensure(peerDir, List.of("127.0.0.1"), 1, TlsPurpose.PEER);
        assertEquals(List.of("server auth", "client auth"),
                CertificateDetails.of(first.certificateChain().get(0)).extendedKeyUsages());
        String before = Files.readString(first.certFile());
        TlsFiles second = SelfSignedTls.ensure(peerDir, List.of("10.0.0.1"), 1, TlsPurpose.PEER);
        assertEquals(before, Files.readString(second.certFile()), "etcd reuses existing auto TLS files");
    }

    @Test
    void hostNamesDropSchemesAndPorts() {
        assertEquals(List.of("127.0.0.1", "::1", "example.com", "10.0.0.1"), SelfSignedTls.hostNames(
                List.of("http://127.0.0.1:2380", "[::1]:2379", "example.com:2379", "10.0.0.1", "127.0.0.1")));
    }
}
