package io.etcdj.server.tls;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.ClusterCertificates;
import io.etcdj.certs.ClusterTlsLayout;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.certs.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Certificates for the TLS tests, written under one directory: a cluster layout (CA, server and
 * peer certificates for infra0..2 on 127.0.0.1/localhost, a client certificate "root"), and bad
 * material: an expired server certificate, one for another address, and certificates from
 * another CA.
 */
final class TlsFixture {
    static final List<String> HOSTS = List.of("127.0.0.1", "localhost");

    final Path dir;
    final ClusterTlsLayout layout;
    final Path rogueCa;
    final TlsFiles roguePeer;
    final TlsFiles rogueClient;
    final TlsFiles expiredServer;
    final TlsFiles otherHostServer;

    private TlsFixture(Path dir, ClusterTlsLayout layout, Path rogueCa, TlsFiles roguePeer, TlsFiles rogueClient,
                       TlsFiles expiredServer, TlsFiles otherHostServer) {
        this.dir = dir;
        this.layout = layout;
        this.rogueCa = rogueCa;
        this.roguePeer = roguePeer;
        this.rogueClient = rogueClient;
        this.expiredServer = expiredServer;
        this.otherHostServer = otherHostServer;
    }

    static TlsFixture create(Path dir) throws Exception {
        Files.createDirectories(dir);
        ClusterTlsLayout layout = ClusterCertificates.forMembers(List.of(
                        new ClusterCertificates.Member("infra0", HOSTS),
                        new ClusterCertificates.Member("infra1", HOSTS),
                        new ClusterCertificates.Member("infra2", HOSTS)))
                .client("root").writeTo(dir.resolve("cluster"));
        CertificateAuthority ca = CertificateAuthority.load(layout.caCertificate(), layout.caKey());

        Path rogue = Files.createDirectories(dir.resolve("rogue"));
        CertificateAuthority other = CertificateAuthority.create("rogue-ca");
        other.writePem(rogue.resolve("ca.pem"), rogue.resolve("ca-key.pem"));
        TlsFiles roguePeer = write(other.issue(CertificateRequest.peer("rogue").hosts(HOSTS)), rogue, "peer", null);
        TlsFiles rogueClient = write(other.issue(CertificateRequest.client("root")), rogue, "client", null);

        Clock twoDaysAgo = Clock.fixed(Instant.now().minus(Duration.ofDays(2)), ZoneOffset.UTC);
        IssuedCertificate expired = ca.withClock(twoDaysAgo).issue(CertificateRequest.server("expired").hosts(HOSTS)
                .notBefore(Instant.now().minus(Duration.ofDays(2))).validity(Duration.ofDays(1)));
        TlsFiles expiredServer = write(expired, dir, "expired", layout.caCertificate());
        TlsFiles otherHost = write(ca.issue(CertificateRequest.server("elsewhere").ip("10.0.1.10")), dir, "elsewhere",
                layout.caCertificate());
        return new TlsFixture(dir, layout, rogue.resolve("ca.pem"), roguePeer, rogueClient, expiredServer, otherHost);
    }

    private static TlsFiles write(IssuedCertificate cert, Path dir, String base, Path ca) {
        Path pem = dir.resolve(base + ".pem");
        Path key = dir.resolve(base + "-key.pem");
        cert.writePem(pem, key);
        return new TlsFiles(pem, key, ca);
    }

    Path ca() {
        return layout.caCertificate();
    }
}
