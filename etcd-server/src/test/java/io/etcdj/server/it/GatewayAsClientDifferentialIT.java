package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * etcd's JSON gateway is a gRPC client of its own member: its calls count against
 * --max-concurrent-streams (etcd's e2e TestV3CurlMaxStream*), are counted in
 * etcd_server_client_requests_total with client_api_version "unknown", and its errors are
 * grpc-gateway's bodies. Each scenario runs on the real etcd 3.4 and on ours and compares what a
 * curl user sees.
 */
class GatewayAsClientDifferentialIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String FOO = "Zm9v";

    private static final Pattern SAMPLE = Pattern.compile(
            "(?m)^etcd_server_client_requests_total\\{client_api_version=\"unknown\",type=\"(unary|stream)\"} ([0-9.e+]+)$");

    private static HttpResponse<String> post(EtcdProcess m, String path, String body, Duration timeout) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + path)).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(EtcdProcess m, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + path)).timeout(Duration.ofSeconds(20))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A watch through the gateway on a connection of its own, open until closed; returns once created. */
    private static Socket openWatch(EtcdProcess m) throws Exception {
        Socket s = new Socket("127.0.0.1", m.clientPort());
        s.setSoTimeout(20_000);
        String body = "{\"create_request\":{\"key\":\"" + FOO + "\"}}";
        OutputStream out = s.getOutputStream();
        out.write(("POST /v3/watch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            seen.append(line).append('\n');
            if (line.contains("\"created\":true")) {
                return s;
            }
        }
        throw new AssertionError("the watch was not created: " + seen);
    }

    /** What a curl user sees of one scenario on one member; the scenario's outcome is compared across both. */
    private static String onBoth(Function<EtcdProcess, String> scenario, String... flags) throws Exception {
        String real;
        try (EtcdProcess m = EtcdProcess.realEtcd(flags)) {
            m.start();
            real = scenario.apply(m);
        }
        String ours;
        try (EtcdProcess m = EtcdProcess.ours(flags)) {
            m.start();
            ours = scenario.apply(m);
        }
        assertEquals(real, ours, "ours differs from etcd 3.4");
        return ours;
    }

    @Test
    void theGatewaysCallsWaitForAStreamWhenMaxConcurrentStreamsIsReached() throws Exception {
        String seen = onBoth(m -> {
            try {
                StringBuilder out = new StringBuilder();
                out.append("before the limit: ")
                        .append(post(m, "/v3/kv/range", "{\"key\":\"" + FOO + "\"}", Duration.ofSeconds(20)).statusCode()).append('\n');
                try (Socket watch = openWatch(m)) {
                    // the watch holds the gateway's only stream: a range waits (curl's --max-time gives up on it)
                    assertThrows(HttpTimeoutException.class,
                            () -> post(m, "/v3/kv/range", "{\"key\":\"" + FOO + "\"}", Duration.ofSeconds(3)));
                    out.append("at the limit: waits\n");
                    // a client of its own (etcdctl) is not held back: the limit is per connection
                    new Etcdctl(m.endpoint()).run("put", "foo", "bar").ok();
                    CompletableFuture<HttpResponse<String>> waiting = HTTP.sendAsync(
                            HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + "/v3/kv/range"))
                                    .timeout(Duration.ofSeconds(30))
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"" + FOO + "\"}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    Thread.sleep(1000);
                    out.append("still waiting: ").append(!waiting.isDone()).append('\n');
                    watch.close();
                    HttpResponse<String> r = waiting.get(30, TimeUnit.SECONDS);
                    out.append("after the watch ended: ").append(r.statusCode()).append(' ')
                            .append(r.body().contains("\"value\":\"YmFy\"")).append('\n');
                }
                return out.toString();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "--max-concurrent-streams=1");
        assertTrue(seen.contains("at the limit: waits\nstill waiting: true\nafter the watch ended: 200 true"), seen);
    }

    private static double clientRequests(EtcdProcess m, String type) throws Exception {
        Matcher s = SAMPLE.matcher(get(m, "/metrics").body());
        while (s.find()) {
            if (s.group(1).equals(type)) {
                return Double.parseDouble(s.group(2));
            }
        }
        return 0;
    }

    @Test
    void gatewayRequestsCountAsClientRequestsOfUnknownVersion() throws Exception {
        String seen = onBoth(m -> {
            try {
                double unary = clientRequests(m, "unary");
                double stream = clientRequests(m, "stream");
                for (int i = 0; i < 3; i++) {
                    post(m, "/v3/kv/put", "{\"key\":\"" + FOO + "\",\"value\":\"YmFy\"}", Duration.ofSeconds(20));
                }
                post(m, "/v3/kv/range", "{\"key\":\"" + FOO + "\"}", Duration.ofSeconds(20));
                post(m, "/v3/lease/grant", "{\"TTL\":\"30\"}", Duration.ofSeconds(20));
                openWatch(m).close();
                return "unary +" + (clientRequests(m, "unary") - unary) + ", stream +" + (clientRequests(m, "stream") - stream);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertEquals("unary +5.0, stream +1.0", seen);
    }

    @Test
    void electionWithoutLeaderAnswersEtcdsErrorBody() throws Exception {
        String seen = onBoth(m -> {
            try {
                StringBuilder out = new StringBuilder();
                for (String path : new String[] {"/v3/election/proclaim", "/v3/election/resign"}) {
                    HttpResponse<String> r = post(m, path, "{}", Duration.ofSeconds(20));
                    out.append(path).append(' ').append(r.statusCode()).append(' ').append(r.body()).append('\n');
                }
                HttpResponse<String> put = post(m, "/v3/kv/put", "{}", Duration.ofSeconds(20));
                out.append("/v3/kv/put ").append(put.statusCode()).append(' ').append(put.body()).append('\n');
                return out.toString();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertTrue(seen.contains("/v3/election/proclaim 500 {\"error\":\"\\\"leader\\\" field must be provided\","
                + "\"message\":\"\\\"leader\\\" field must be provided\",\"code\":2}"), seen);
    }
}
