package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * /metrics against the real etcd 3.4, one member each: every family etcd 3.4 exports (its go_*
 * aside, for which ours has jvm_*) is on ours under the same name and type, every family of ours
 * (jvm_* aside) is one of etcd's, the member's values move with what a client does, and the real
 * {@code etcdctl check datascale}, which reads process_resident_memory_bytes, passes.
 */
class MetricsDifferentialIT {

    private static String scrape(EtcdProcess m) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + m.endpoint() + "/metrics")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        return r.body();
    }

    private static Map<String, String> families(String body) {
        Map<String, String> out = new TreeMap<>();
        body.lines().filter(l -> l.startsWith("# TYPE ")).forEach(l -> {
            String[] p = l.split(" ");
            out.put(p[2], p[3]);
        });
        return out;
    }

    /** The value of one series: a name, or a name with its whole label set as etcd prints it. */
    private static double value(String body, String series) {
        return body.lines().filter(l -> l.startsWith(series + " "))
                .map(l -> Double.parseDouble(l.substring(series.length() + 1))).findFirst()
                .orElseThrow(() -> new AssertionError(series + " not exported"));
    }

    /** What the test does on each member before scraping. */
    private static void workload(EtcdProcess m) {
        Etcdctl ctl = new Etcdctl(m.endpoint());
        ctl.run("put", "metrics/k", "v").ok();
        ctl.run("put", "metrics/k", "v2").ok();
        ctl.run("lease", "grant", "100").ok();
        ctl.run("compact", "2").ok();
        ctl.run("endpoint", "hashkv").ok();
    }

    @Test
    void etcdsFamiliesAreOursAndTheValuesAreTheMembers() throws Exception {
        Map<String, String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd("--metrics=extensive")) {
            m.start();
            workload(m);
            real = families(scrape(m));
        }
        try (EtcdProcess m = EtcdProcess.ours("--metrics=extensive")) {
            m.start();
            workload(m);
            String body = scrape(m);
            Map<String, String> ours = families(body);
            Map<String, String> missing = new TreeMap<>();
            real.forEach((name, type) -> {
                if (!name.startsWith("go_") && !type.equals(ours.get(name))) {
                    missing.put(name, type + " (ours: " + ours.get(name) + ")");
                }
            });
            assertEquals(Map.of(), missing, "etcd 3.4's families missing from ours or of another type");
            Map<String, String> unknown = new TreeMap<>();
            ours.forEach((name, type) -> {
                if (!name.startsWith("jvm_") && !type.equals(real.get(name))) {
                    unknown.put(name, type + " (etcd 3.4: " + real.get(name) + ")");
                }
            });
            assertEquals(Map.of(), unknown, "families that etcd 3.4 does not export under that name and type");

            assertEquals(2, value(body, "etcd_mvcc_put_total"));
            assertEquals(2, value(body, "etcd_debugging_mvcc_put_total"));
            assertEquals(2, value(body, "etcd_debugging_mvcc_compact_revision"));
            assertEquals(1, value(body, "etcd_debugging_mvcc_keys_total"));
            assertEquals(1, value(body, "etcd_debugging_lease_granted_total"));
            assertEquals(100, value(body, "etcd_debugging_lease_ttl_total_sum"));
            assertEquals(1, value(body, "etcd_mvcc_hash_rev_duration_seconds_count"));
            assertEquals(1, value(body, "etcd_debugging_mvcc_db_compaction_total_duration_milliseconds_count"));
            assertEquals(1, value(body, "etcd_server_is_leader"));
            assertTrue(value(body, "etcd_disk_wal_fsync_duration_seconds_count") > 0, "WAL fsyncs");
            assertTrue(value(body, "etcd_disk_wal_write_bytes_total") > 0, "WAL bytes");
            assertTrue(value(body, "etcd_disk_backend_commit_duration_seconds_count") > 0, "backend commits");
            assertTrue(value(body, "etcd_network_client_grpc_received_bytes_total") > 0, "client bytes");
            assertEquals(2, value(body, "grpc_server_handled_total{grpc_code=\"OK\",grpc_method=\"Put\","
                    + "grpc_service=\"etcdserverpb.KV\",grpc_type=\"unary\"}"));
            assertEquals(2, value(body, "grpc_server_handling_seconds_count{grpc_method=\"Put\","
                    + "grpc_service=\"etcdserverpb.KV\",grpc_type=\"unary\"}"));
            assertTrue(value(body, "etcd_server_client_requests_total{client_api_version=\"3.4\",type=\"unary\"}") >= 5,
                    "requests by client version");
            assertTrue(body.contains("\netcd_server_health_success "), "etcd's name, without _total");
            assertTrue(value(body, "process_resident_memory_bytes") > 0, "resident memory");

            Etcdctl.Result scale = new Etcdctl(m.endpoint()).run("check", "datascale");
            assertEquals(0, scale.exitCode(), scale.toString());
            assertTrue(scale.stdout().contains("PASS"), scale.toString());
        }
    }

    @Test
    void basicMetricsLeaveOutTheHandlingHistogram() throws Exception {
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            new Etcdctl(m.endpoint()).run("put", "metrics/k", "v").ok();
            String body = scrape(m);
            assertTrue(body.contains("\ngrpc_server_handled_total{"), "the gRPC counters are there");
            assertTrue(!body.contains("grpc_server_handling_seconds"), "no handling histogram with --metrics=basic");
        }
    }
}
