package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * --warning-unary-request-duration and --warning-apply-duration: past the threshold a request is
 * logged as etcd logs it ("request stats" with the method and the request, its value replaced by
 * its size) and an apply too ("apply request took too long"); under it nothing is logged. The
 * thresholds are set far below or far above any real duration so the outcome does not depend on
 * the machine's speed.
 */
class SlowWarningsIT {

    @Test
    void requestsAndAppliesPastTheThresholdsAreLoggedWithoutTheirValues() throws Exception {
        try (EtcdProcess m = EtcdProcess.ours("--warning-unary-request-duration=1ns",
                "--experimental-warning-apply-duration=1ns")) {
            m.start();
            new Etcdctl(m.endpoint()).run("put", "slow/k", "hello").ok();
            new Etcdctl(m.endpoint()).run("get", "slow/k").ok();
            String log = Files.readString(m.logFile(), StandardCharsets.UTF_8);
            assertTrue(log.contains("\"prefix\":\"read-only range \",\"request\":\"key:\\\"slow/k\\\" \","
                    + "\"response\":\"range_response_count:1 size:"), "etcd's warning for a slow read-only range:\n" + log);
            assertTrue(log.contains("\"msg\":\"request stats\"") && log.contains("\"response type\":\"/etcdserverpb.KV/Put\"")
                    && log.contains("\"request content\":\"key:\\\"slow/k\\\" value_size:5 \""), log);
            assertTrue(log.contains("\"msg\":\"apply request took too long\"")
                    && log.contains("\"request\":\"header:<ID:") && log.contains("put:<key:\\\"slow/k\\\" value_size:5 >"), log);
            assertTrue(log.contains("\"expected-duration\":\"1ns\""), log);
            assertFalse(log.contains("hello"), "a value reached the log:\n" + log);
            assertTrue(Metrics.scrape(m).matches("(?s).*\netcd_server_slow_apply_total [1-9].*"), "slow applies are counted");
        }
    }

    @Test
    void nothingIsLoggedUnderTheThresholds() throws Exception {
        try (EtcdProcess m = EtcdProcess.ours("--warning-unary-request-duration=1h", "--warning-apply-duration=1h")) {
            m.start();
            new Etcdctl(m.endpoint()).run("put", "slow/k", "hello").ok();
            String log = Files.readString(m.logFile(), StandardCharsets.UTF_8);
            assertFalse(log.contains("request stats") || log.contains("apply request took too long"), log);
        }
    }

    /** Reads /metrics from the member's client URL. */
    private static final class Metrics {
        static String scrape(EtcdProcess m) throws Exception {
            var http = HttpClient.newHttpClient();
            var req = HttpRequest.newBuilder(URI.create(m.clientUrl() + "/metrics")).build();
            return http.send(req, HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
