package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.TlsFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code --client-cert-auth}, a client that sends no token is the user its certificate's
 * common name names (etcd's rule): a certificate-only ({@code --no-password}) user works with the
 * real etcdctl and gets exactly its role's permissions; a token, when given, wins over the name.
 */
class CertificateAuthIT {
    @TempDir
    Path dir;

    @Test
    void theCommonNameIsTheUserWhenNoTokenIsGiven() throws Exception {
        TlsFixture pki = TlsFixture.create(dir.resolve("pki"));
        TlsFiles server = pki.layout.server("infra0");
        TlsFiles root = pki.layout.client(); // CN=root
        CertificateAuthority ca = CertificateAuthority.load(pki.layout.caCertificate(), pki.layout.caKey());
        Path alicePem = dir.resolve("alice.pem");
        Path aliceKey = dir.resolve("alice-key.pem");
        ca.issue(CertificateRequest.client("alice")).writePem(alicePem, aliceKey);
        TlsFiles alice = new TlsFiles(alicePem, aliceKey, pki.ca());
        try (TlsMember member = new TlsMember("infra0", dir.resolve("data"), true, false)
                .set("cert-file", server.certFile()).set("key-file", server.keyFile())
                .set("client-cert-auth", true).set("trusted-ca-file", pki.ca())) {
            TlsMember.startAll(List.of(member));
            String ep = member.endpoint();
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "user", "add", "root:rootpw"));
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "user", "grant-role", "root", "root"));
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "auth", "enable"));
            // from here on the root certificate alone is the root user
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "user", "add", "alice", "--no-password"));
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "role", "add", "r"));
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "role", "grant-permission", "r", "readwrite", "/a/", "--prefix"));
            ok(TlsClients.etcdctl(ep, pki.ca(), root, "user", "grant-role", "alice", "r"));

            assertEquals("OK\n", ok(TlsClients.etcdctl(ep, pki.ca(), alice, "put", "/a/x", "1")).output());
            assertEquals("/a/x\n1\n", ok(TlsClients.etcdctl(ep, pki.ca(), alice, "get", "/a/x")).output());
            TlsClients.Result denied = TlsClients.etcdctl(ep, pki.ca(), alice, "put", "foo", "1");
            assertEquals(1, denied.exitCode(), denied.output());
            assertTrue(denied.output().contains("Error: etcdserver: permission denied"), denied.output());
            TlsClients.Result list = TlsClients.etcdctl(ep, pki.ca(), alice, "user", "list");
            assertTrue(list.output().contains("etcdserver: permission denied"), list.output());
            // a token wins over the certificate: alice's certificate logged in as root acts as root
            TlsClients.Result asRoot = TlsClients.etcdctl(ep, pki.ca(), alice, "--user", "root:rootpw", "put", "foo", "1");
            assertEquals(0, asRoot.exitCode(), asRoot.output());
            TlsClients.Result wrong = TlsClients.etcdctl(ep, pki.ca(), alice, "--user", "alice:x", "get", "/a/x");
            assertTrue(wrong.output().contains("password was given for no password user"), wrong.output());
        }
    }

    private static TlsClients.Result ok(TlsClients.Result r) {
        assertEquals(0, r.exitCode(), r.output());
        return r;
    }
}
