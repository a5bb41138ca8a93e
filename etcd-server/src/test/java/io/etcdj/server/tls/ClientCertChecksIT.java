package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.certs.TlsFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --client-crl-file and --client-cert-allowed-hostname on a member with --client-cert-auth, seen
 * by the real etcdctl: a revoked client certificate is refused while others are served, and only
 * a certificate valid for an allowed host name gets in.
 */
class ClientCertChecksIT {
    @TempDir
    static Path dir;
    static TlsFixture pki;
    static TlsFiles server;
    static TlsFiles revoked;
    static TlsFiles app;

    @BeforeAll
    static void pki() throws Exception {
        pki = TlsFixture.create(dir.resolve("pki"));
        server = pki.layout.server("infra0");
        CertificateAuthority ca = CertificateAuthority.load(pki.layout.caCertificate(), pki.layout.caKey());
        revoked = write(ca.issue(CertificateRequest.client("revoked")), "revoked");
        app = write(ca.issue(CertificateRequest.client("app").dns("app.clients.example")), "app");
        CrlFixture.write(dir.resolve("clients.crl"), ca.asIssued(),
                IssuedCertificate.load(revoked.certFile(), revoked.keyFile()).certificate());
    }

    private static TlsFiles write(IssuedCertificate c, String name) {
        c.writePem(dir.resolve(name + ".pem"), dir.resolve(name + "-key.pem"));
        return new TlsFiles(dir.resolve(name + ".pem"), dir.resolve(name + "-key.pem"), pki.ca());
    }

    private static TlsMember member(String name, String flag, Object value) throws Exception {
        return new TlsMember(name, dir.resolve(name), true, false)
                .set("cert-file", server.certFile()).set("key-file", server.keyFile())
                .set("client-cert-auth", true).set("trusted-ca-file", pki.ca()).set(flag, value);
    }

    @Test
    void aRevokedClientCertificateIsRefusedAndOthersAreServed() throws Exception {
        try (TlsMember m = member("crl", "client-crl-file", dir.resolve("clients.crl"))) {
            TlsMember.startAll(List.of(m));
            TlsClients.Result ok = TlsClients.etcdctl(m.endpoint(), pki.ca(), pki.layout.client(), "put", "crl/k", "v");
            assertEquals(0, ok.exitCode(), ok.output());
            TlsClients.Result refused = TlsClients.etcdctl(m.endpoint(), pki.ca(), revoked, "get", "crl/k");
            assertNotEquals(0, refused.exitCode(), refused.output());
            TlsClients.Result app = TlsClients.etcdctl(m.endpoint(), pki.ca(), ClientCertChecksIT.app, "get", "crl/k");
            assertEquals(0, app.exitCode(), app.output());
            assertTrue(app.output().contains("crl/k\nv"), app.output());
        }
    }

    @Test
    void onlyACertificateForAnAllowedHostNameGetsIn() throws Exception {
        try (TlsMember m = member("hostname", "client-cert-allowed-hostname", "app.clients.example,other.example")) {
            TlsMember.startAll(List.of(m));
            TlsClients.Result ok = TlsClients.etcdctl(m.endpoint(), pki.ca(), app, "put", "host/k", "v");
            assertEquals(0, ok.exitCode(), ok.output());
            TlsClients.Result refused = TlsClients.etcdctl(m.endpoint(), pki.ca(), pki.layout.client(), "get", "host/k");
            assertNotEquals(0, refused.exitCode(), refused.output());
        }
    }
}
