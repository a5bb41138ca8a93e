package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateDetails;
import io.etcdj.certs.PemFiles;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --auto-tls and --peer-auto-tls: self-signed certificates under the data dir, encrypted but unverifiable. */
class AutoTlsIT {
    @TempDir
    Path dir;

    @Test
    void selfSignedCertificatesServeHttps() throws Exception {
        Path data = dir.resolve("data");
        try (TlsMember member = new TlsMember("auto", data, true, true).set("auto-tls", true).set("peer-auto-tls", true)) {
            TlsMember.startAll(List.of(member));
            Path clientCert = data.resolve("fixtures/client/cert.pem");
            assertTrue(Files.exists(data.resolve("fixtures/client/key.pem")));
            assertTrue(Files.exists(data.resolve("fixtures/peer/cert.pem")));
            X509Certificate cert = PemFiles.readCertificates(clientCert).get(0);
            assertTrue(CertificateDetails.of(cert).coversHost("127.0.0.1"), "SANs from the listen URLs");

            assertThrows(IOException.class, () -> TlsClients.httpGet(
                    HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), member.https("/health")),
                    "the self-signed certificate is not trusted by default");
            HttpResponse<String> health = TlsClients.httpGet(insecure(), member.https("/health"));
            assertEquals(200, health.statusCode(), health.body());
        }
    }

    /** curl -k: no verification at all. */
    private static HttpClient insecure() throws Exception {
        TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {trustAll}, null);
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(10)).build();
    }
}
