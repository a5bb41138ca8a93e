package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.TlsFiles;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The etcd command line kubeadm writes into its static pod manifest, with its TLS layout (client
 * and peer certificates, both sides requiring client certificates), starts our member: gRPC is
 * served to clients with a certificate, and the plain-HTTP metrics URL that kubelet's probes use
 * answers /health, /livez, /readyz and /metrics.
 */
class KubeadmFlagsIT {
    @TempDir
    Path dir;

    @Test
    void kubeadmsEtcdCommandLineStarts() throws Exception {
        TlsFixture pki = TlsFixture.create(dir.resolve("pki"));
        TlsFiles server = pki.layout.server("infra0");
        TlsFiles peer = pki.layout.peer("infra0");
        int metricsPort = TlsMember.freePort();
        try (TlsMember member = new TlsMember("infra0", dir.resolve("data"), true, true)
                .set("cert-file", server.certFile()).set("key-file", server.keyFile())
                .set("client-cert-auth", true).set("trusted-ca-file", pki.ca())
                .set("peer-cert-file", peer.certFile()).set("peer-key-file", peer.keyFile())
                .set("peer-client-cert-auth", true).set("peer-trusted-ca-file", pki.ca())
                .set("experimental-initial-corrupt-check", true)
                .set("experimental-watch-progress-notify-interval", "5s")
                .set("listen-metrics-urls", "http://127.0.0.1:" + metricsPort)
                .set("snapshot-count", 10000)) {
            TlsMember.startAll(List.of(member));
            ManagedChannel ch = TlsClients.grpc(member.endpoint(), pki.ca(), pki.layout.client());
            try {
                TlsClients.put(ch, "kubeadm/k", "v");
                assertEquals("v", TlsClients.get(ch, "kubeadm/k"));
            } finally {
                TlsClients.close(ch);
            }
            HttpClient http = HttpClient.newHttpClient();
            for (String path : List.of("/health", "/livez", "/readyz", "/metrics")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path))
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), path + ": " + r.body());
            }
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/health"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(health.body().startsWith("{\"health\":\"true\""), health.body());
        }
    }
}
