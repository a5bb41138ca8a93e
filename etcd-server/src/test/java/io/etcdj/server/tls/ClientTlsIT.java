package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.Prerequisites;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One member of our server with an https client URL, --client-cert-auth and --trusted-ca-file:
 * gRPC and HTTPS (gateway, /health, /metrics) share the port; clients without a certificate from
 * the CA fail the handshake while the others keep being served. The real etcdctl and curl are
 * used too when installed.
 */
class ClientTlsIT {
    @TempDir
    static Path dir;
    static TlsFixture pki;
    static TlsMember member;
    static TlsFiles client;

    @BeforeAll
    static void start() throws Exception {
        pki = TlsFixture.create(dir.resolve("pki"));
        client = pki.layout.client();
        TlsFiles server = pki.layout.server("infra0");
        member = new TlsMember("infra0", dir.resolve("data"), true, false)
                .set("cert-file", server.certFile()).set("key-file", server.keyFile())
                .set("client-cert-auth", true).set("trusted-ca-file", pki.ca());
        TlsMember.startAll(List.of(member));
    }

    @AfterAll
    static void stop() {
        if (member != null) {
            member.close();
        }
    }

    @Test
    void grpcWithTheClientCertificateIsServed() throws Exception {
        ManagedChannel ch = TlsClients.grpc(member.endpoint(), pki.ca(), client);
        try {
            TlsClients.put(ch, "grpc-key", "over-tls");
            assertEquals("over-tls", TlsClients.get(ch, "grpc-key"));
        } finally {
            TlsClients.close(ch);
        }
    }

    @Test
    void httpsGatewayHealthAndMetricsShareThePort() throws Exception {
        HttpClient http = TlsClients.https(pki.ca(), client);
        HttpResponse<String> health = TlsClients.httpGet(http, member.https("/health"));
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(health.body().startsWith("{\"health\":\"true\""), health.body());
        // the JDK client offers h2 and http/1.1; the member picks http/1.1 for its HTTP handlers
        assertEquals(HttpClient.Version.HTTP_1_1, health.version());
        HttpResponse<String> put = TlsClients.httpPost(http, member.https("/v3/kv/put"),
                "{\"key\":\"aHR0cC1rZXk=\",\"value\":\"Z2F0ZXdheQ==\"}");
        assertEquals(200, put.statusCode(), put.body());
        HttpResponse<String> range = TlsClients.httpPost(http, member.https("/v3/kv/range"), "{\"key\":\"aHR0cC1rZXk=\"}");
        assertTrue(range.body().contains("\"value\":\"Z2F0ZXdheQ==\""), range.body());
        HttpResponse<String> metrics = TlsClients.httpGet(http, member.https("/metrics"));
        assertTrue(metrics.body().contains("etcd_server_has_leader 1"), metrics.body());
    }

    @Test
    void clientsWithoutTheCaCertificateAreRefusedAndOthersStillServed() throws Exception {
        assertThrows(IOException.class,
                () -> TlsClients.httpGet(TlsClients.https(pki.ca(), null), member.https("/health")),
                "no client certificate");
        assertThrows(IOException.class,
                () -> TlsClients.httpGet(TlsClients.https(pki.ca(), pki.rogueClient), member.https("/health")),
                "client certificate from another CA");
        ManagedChannel anonymous = TlsClients.grpc(member.endpoint(), pki.ca(), null);
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> TlsClients.get(anonymous, "k"));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
        } finally {
            TlsClients.close(anonymous);
        }
        HttpResponse<String> health = TlsClients.httpGet(TlsClients.https(pki.ca(), client), member.https("/health"));
        assertEquals(200, health.statusCode(), "the member keeps serving clients with a certificate");
    }

    @Test
    void realEtcdctlNeedsTheClientCertificate() throws Exception {
        Prerequisites.requireExecutable(TlsClients.ETCDCTL, "etcd-client");
        TlsClients.Result put = TlsClients.etcdctl(member.endpoint(), pki.ca(), client, "put", "ctl-key", "ctl-value");
        assertEquals(0, put.exitCode(), put.output());
        TlsClients.Result get = TlsClients.etcdctl(member.endpoint(), pki.ca(), client, "get", "ctl-key", "--print-value-only");
        assertEquals("ctl-value\n", get.output());
        TlsClients.Result refused = TlsClients.etcdctl(member.endpoint(), pki.ca(), null, "get", "ctl-key");
        assertNotEquals(0, refused.exitCode(), refused.output());
    }

    @Test
    void realCurlNeedsTheClientCertificate() throws Exception {
        Prerequisites.requireExecutable(TlsClients.CURL, "curl");
        TlsClients.Result ok = TlsClients.run(List.of(TlsClients.CURL.toString(), "-sS", "--cacert", pki.ca().toString(),
                "--cert", client.certFile().toString(), "--key", client.keyFile().toString(), member.https("/health")));
        assertEquals(0, ok.exitCode(), ok.output());
        assertTrue(ok.output().startsWith("{\"health\":\"true\""), ok.output());
        TlsClients.Result refused = TlsClients.run(List.of(TlsClients.CURL.toString(), "-sS", "--cacert",
                pki.ca().toString(), member.https("/health")));
        assertNotEquals(0, refused.exitCode(), refused.output());
    }
}
