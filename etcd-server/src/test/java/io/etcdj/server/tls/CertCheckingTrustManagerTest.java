package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.server.config.CertChecks;
import io.etcdj.server.config.ConfigException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The revocation list and allowed names etcd checks on client and peer certificates. */
class CertCheckingTrustManagerTest {
    @TempDir
    static Path dir;
    static CertificateAuthority ca;
    static X509ExtendedTrustManager caTrust;
    static IssuedCertificate alice;
    static IssuedCertificate bob;
    static IssuedCertificate host;

    @BeforeAll
    static void pki() throws Exception {
        ca = CertificateAuthority.create("test-ca");
        alice = ca.issue(CertificateRequest.client("alice"));
        bob = ca.issue(CertificateRequest.client("bob"));
        host = ca.issue(CertificateRequest.peer("member-1").dns("*.peers.example").ip("10.0.0.7"));
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        caTrust = (X509ExtendedTrustManager) tmf.getTrustManagers()[0];
    }

    private static CertCheckingTrustManager with(CertChecks checks) {
        return new CertCheckingTrustManager(caTrust, checks);
    }

    private static X509Certificate[] chain(IssuedCertificate c) {
        return new X509Certificate[] {c.certificate(), ca.certificate()};
    }

    @Test
    void aRevokedCertificateIsRefusedWithEtcdsText() throws Exception {
        Path crl = dir.resolve("revoked.crl");
        CrlFixture.write(crl, ca.asIssued(), bob.certificate());
        CertCheckingTrustManager tm = with(new CertChecks(crl, List.of(), List.of()));
        tm.check(chain(alice));
        CertificateException e = assertThrows(CertificateException.class, () -> tm.check(chain(bob)));
        assertTrue(e.getMessage().matches("transport: certificate serial [0-9a-f]+ revoked"), e.getMessage());
        assertTrue(e.getMessage().contains(bob.certificate().getSerialNumber().toString(16).replaceFirst("^0+", "")),
                e.getMessage());
        // the list is read for every connection: a new one takes effect without a restart
        CrlFixture.write(crl, ca.asIssued(), alice.certificate());
        tm.check(chain(bob));
        assertThrows(CertificateException.class, () -> tm.check(chain(alice)));
    }

    @Test
    void onlyAllowedCommonNamesOrHostNamesPass() throws Exception {
        CertCheckingTrustManager cn = with(new CertChecks(null, List.of("alice", "carol"), List.of()));
        cn.check(chain(alice));
        assertEquals("client certificate authentication failed",
                assertThrows(CertificateException.class, () -> cn.check(chain(bob))).getMessage());
        CertCheckingTrustManager names = with(new CertChecks(null, List.of(), List.of("m1.peers.example")));
        names.check(chain(host));
        assertThrows(CertificateException.class, () -> names.check(chain(alice)));
        with(new CertChecks(null, List.of(), List.of("10.0.0.7"))).check(chain(host));
        assertThrows(CertificateException.class,
                () -> with(new CertChecks(null, List.of(), List.of("a.b.peers.example"))).check(chain(host)));
    }

    @Test
    void aMissingRevocationListStopsTheStartInOneLine() {
        Path missing = dir.resolve("nope.crl");
        ConfigException e = assertThrows(ConfigException.class,
                () -> CertCheckingTrustManager.checkReadable(new CertChecks(missing, List.of(), List.of())));
        assertEquals("open " + missing + ": no such file or directory", e.getMessage());
    }
}
