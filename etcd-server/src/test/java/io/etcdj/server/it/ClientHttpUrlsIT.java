package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * --listen-client-http-urls (etcd 3.6): the gateway and the HTTP endpoints move to their own
 * listener, and the --listen-client-urls port serves gRPC alone (an HTTP request there gets its
 * connection closed), while the real etcdctl keeps working over gRPC.
 */
class ClientHttpUrlsIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void httpMovesToItsOwnListenerAndTheClientPortServesGrpcOnly() throws Exception {
        int httpPort = FreePorts.pick();
        String httpUrl = "http://127.0.0.1:" + httpPort;
        try (EtcdProcess m = EtcdProcess.ours("--listen-client-http-urls=" + httpUrl)) {
            m.startUntilReadyLine();
            Etcdctl ctl = new Etcdctl(m.endpoint());
            Etcdctl.Result put = null;
            for (int i = 0; i < 100 && (put == null || put.exitCode() != 0); i++) {
                put = ctl.run("put", "http/k", "v"); // the first may come before a leader is elected
            }
            assertEquals(0, put.exitCode(), put.toString());
            HttpResponse<String> version = get(httpUrl + "/version");
            assertEquals(200, version.statusCode());
            assertTrue(version.body().startsWith("{\"etcdserver\":"), version.body());
            HttpResponse<String> range = HTTP.send(HttpRequest.newBuilder(URI.create(httpUrl + "/v3/kv/range"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"aHR0cC9r\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(range.body().contains("\"value\":\"dg==\""), range.body());
            assertEquals(200, get(httpUrl + "/health").statusCode());
            assertThrows(IOException.class, () -> get(m.clientUrl() + "/version"), "HTTP is gone from the client port");
            assertEquals("http/k\nv\n", ctl.run("get", "http/k").ok().stdout());
        }
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
