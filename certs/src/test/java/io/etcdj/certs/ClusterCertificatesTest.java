package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterCertificatesTest {
    @TempDir
    Path dir;

    @Test
    void writesEveryFileWithTheRightUsages() {
        ClusterTlsLayout layout = ClusterCertificates.forMembers(List.of(
                        new ClusterCertificates.Member("infra0", List.of("127.0.0.1", "localhost")),
                        new ClusterCertificates.Member("infra1", List.of("127.0.0.2"))))
                .client("admin").writeTo(dir);
        List<String> names = layout.writtenFiles().stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(List.of("ca.pem", "ca-key.pem", "infra0.pem", "infra0-key.pem", "peer-infra0.pem", "peer-infra0-key.pem",
                "infra1.pem", "infra1-key.pem", "peer-infra1.pem", "peer-infra1-key.pem", "client.pem", "client-key.pem"), names);
        layout.writtenFiles().forEach(file -> assertTrue(Files.exists(file), file.toString()));
        TlsMaterialCheck.of(layout.server("infra0")).purpose(TlsPurpose.SERVER).hosts(List.of("127.0.0.1", "localhost"))
                .requireSignedByTrustedCa(true).check();
        TlsMaterialCheck.of(layout.peer("infra1")).purpose(TlsPurpose.PEER).hosts(List.of("127.0.0.2"))
                .requireSignedByTrustedCa(true).check();
        TlsMaterialCheck.of(layout.client()).purpose(TlsPurpose.CLIENT).requireSignedByTrustedCa(true).check();
        CertificateDetails client = CertificateDetails.of(layout.client().certificateChain().get(0));
        assertEquals("admin", client.commonName());
        assertEquals(List.of("client auth"), client.extendedKeyUsages());
        assertThrows(TlsMaterialException.class,
                () -> TlsMaterialCheck.of(layout.server("infra1")).hosts(List.of("127.0.0.1")).check());
    }

    @Test
    void existingCaKeyIsNotCopied() {
        CertificateAuthority ca = CertificateAuthority.create("shared");
        ClusterTlsLayout layout = ClusterCertificates.forMembers(List.of(new ClusterCertificates.Member("m", List.of("::1"))))
                .writeTo(dir, ca);
        assertNull(layout.caKey());
        assertTrue(Files.notExists(dir.resolve("ca-key.pem")));
        assertTrue(ChainValidator.validate(layout.peer("m").certificateChain(), List.of(ca.certificate()), Instant.now()).valid());
    }

    @Test
    void rejectsBadMemberLists() {
        assertThrows(IllegalArgumentException.class, () -> new ClusterCertificates.Member("../x", List.of()));
        assertThrows(IllegalArgumentException.class, () -> ClusterCertificates.forMembers(List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> ClusterCertificates.forMembers(List.of(new ClusterCertificates.Member("client", List.of()))));
        assertThrows(IllegalArgumentException.class, () -> ClusterCertificates.forMembers(List.of(
                new ClusterCertificates.Member("a", List.of()), new ClusterCertificates.Member("a", List.of()))));
    }
}
