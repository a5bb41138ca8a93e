package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.server.config.Flag;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Our server in place of an existing etcd deployment: kubeadm's etcd command line, every etcd 3.6
 * flag at once, the metrics listener with /health, /livez and /readyz, and start-up errors for
 * flags that have no effect here yet.
 */
class DropInIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void kubeadmsFlagsStartAndTheMetricsUrlServesMetricsAndHealth() throws Exception {
        int metricsPort = FreePorts.pick();
        String metrics = "http://127.0.0.1:" + metricsPort;
        try (EtcdProcess member = EtcdProcess.ours("--experimental-initial-corrupt-check=true",
                "--experimental-watch-progress-notify-interval=5s", "--listen-metrics-urls=" + metrics,
                "--snapshot-count=10000", "--client-cert-auth=false", "--peer-client-cert-auth=false")) {
            member.environment(Map.of("ETCD_NOT_A_FLAG", "1"));
            member.start();
            new Etcdctl(member.endpoint()).run("put", "dropin/k", "v").ok();
            String log = Files.readString(member.logFile());
            assertTrue(log.contains("\"msg\":\"unrecognized environment variable\""), log);
            assertTrue(log.contains("ETCD_NOT_A_FLAG=1"), log);
            assertTrue(log.contains("initial corruption checking passed; no corruption"), log);
            assertTrue(log.contains("--experimental-initial-corrupt-check is deprecated in 3.6"), log);

            HttpResponse<String> m = get(metrics + "/metrics");
            assertEquals(200, m.statusCode());
            assertTrue(m.body().contains("etcd_server_has_leader 1"), m.body());
            HttpResponse<String> health = get(metrics + "/health");
            assertEquals(200, health.statusCode());
            assertTrue(health.body().contains("\"health\":\"true\""), health.body());
            // etcd 3.6's texts (HealthEndpointsIT has the rest): served on the metrics URL as on the client URL
            assertEquals("ok\n", get(metrics + "/livez").body());
            HttpResponse<String> ready = get(metrics + "/readyz?verbose");
            assertEquals(200, ready.statusCode());
            assertTrue(ready.body().contains("[+]linearizable_read ok\n") && ready.body().endsWith(" ok\nok\n"), ready.body());
            assertEquals(404, get(metrics + "/v3/kv/range").statusCode(), "the metrics port serves no gateway");
            assertEquals("ok\n", get("http://" + member.endpoint() + "/readyz").body());
            assertEquals(404, get("http://" + member.endpoint() + "/debug/jvm/threads").statusCode(), "no --enable-pprof");
        }
    }

    @Test
    void everyEtcd36FlagAtOnce() throws Exception {
        Set<String> setByTheHarness = Set.of("name", "data-dir", "listen-client-urls", "advertise-client-urls",
                "listen-peer-urls", "initial-advertise-peer-urls", "initial-cluster", "initial-cluster-state");
        List<String> flags = new ArrayList<>();
        for (Flag f : Flag.ALL) {
            if (f.replacedBy() != null || setByTheHarness.contains(f.name())) {
                continue;
            }
            String value = switch (f.name()) {
                case "listen-metrics-urls" -> "http://127.0.0.1:" + FreePorts.pick();
                case "log-outputs" -> "stderr";
                case "snapshot-count" -> "500";
                case "quota-backend-bytes" -> String.valueOf(64L << 20);
                case "max-learners" -> "2";
                case "grpc-keepalive-min-time" -> "1s";
                case "socket-reuse-address", "socket-reuse-port", "enable-pprof" -> "true";
                case "bootstrap-defrag-threshold-megabytes" -> "1";
                case "memory-mlock", "peer-skip-client-san-verification" -> "true";
                case "initial-election-tick-advance" -> "false";
                case "raft-read-timeout" -> "2s";
                case "raft-write-timeout" -> "3s";
                case "downgrade-check-time" -> "1s";
                case "backend-bbolt-freelist-type" -> "array";
                case "metrics" -> "foo";
                case "distributed-tracing-address" -> "127.0.0.1:4317";
                case "distributed-tracing-service-name" -> "sweep";
                case "distributed-tracing-instance-id" -> "sweep-1";
                case "distributed-tracing-sampling-rate" -> "10";
                case "feature-gates" -> "StopGRPCServiceOnDefrag=true,SetMemberLocalAddr=true,TxnModeWriteWithSharedBuffer=false";
                default -> f.defaultValue();
            };
            flags.add("--" + f.name() + "=" + value);
        }
        try (EtcdProcess member = EtcdProcess.ours(flags.toArray(String[]::new))) {
            member.start();
            new Etcdctl(member.endpoint()).run("put", "sweep/k", "v").ok();
            assertEquals("sweep/k\nv\n", new Etcdctl(member.endpoint()).run("get", "sweep/k").ok().stdout());
            new Etcdctl(member.endpoint()).run("defrag").ok();
            String status = Files.readString(Path.of("/proc/" + member.pid() + "/status"));
            long locked = status.lines().filter(l -> l.startsWith("VmLck:")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .findFirst().orElse(0);
            assertTrue(locked > 0, "--memory-mlock locked the process's pages: " + status);
            String log = Files.readString(member.logFile());
            assertTrue(log.contains("\"msg\":\"mlocking memory\""), log);
            assertTrue(log.contains("\"backend-bbolt-freelist-type\":\"array\""), log);
            assertTrue(log.contains("\"msg\":\"unable to set a member local address due to lack of suitable local addresses\""),
                    "SetMemberLocalAddr skips loopback addresses, as etcd: " + log);
            assertTrue(log.contains("\"status\":\"NOT_SERVING\",\"reason\":\"defrag is active\""), "StopGRPCServiceOnDefrag: " + log);
            String metricsBody = get("http://" + member.endpoint() + "/metrics").body();
            assertTrue(metricsBody.contains("\ngrpc_server_handled_total{") && !metricsBody.contains("grpc_server_handling_seconds"),
                    "--metrics=foo serves the basic set, as etcd 3.4 does");
            assertTrue(log.contains("\"msg\":\"Skipping defragmentation\"")
                    && log.contains("\"experimental-bootstrap-defrag-threshold-bytes\":1048576"), log);

            String client = "http://" + member.endpoint();
            HttpResponse<String> threads = get(client + "/debug/jvm/threads");
            assertEquals(200, threads.statusCode());
            assertTrue(threads.body().startsWith("Full thread dump ") && threads.body().contains("java.lang.Thread.State: "),
                    threads.body());
            HttpResponse<byte[]> jfr = HTTP.send(HttpRequest.newBuilder(URI.create(client + "/debug/jvm/jfr?seconds=1"))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, jfr.statusCode());
            assertEquals("FLR\0", new String(jfr.body(), 0, 4, StandardCharsets.ISO_8859_1),
                    "a Java Flight Recorder file");
            assertEquals(400, get(client + "/debug/jvm/jfr?seconds=0").statusCode());
        }
    }

    @Test
    void aFlagWithoutAnEffectYetStopsTheStartNamingIt() throws Exception {
        try (EtcdProcess member = EtcdProcess.ours("--enable-distributed-tracing=true")) {
            member.launch();
            Eventually.reached(Duration.ofSeconds(60), () -> !member.isAlive());
            assertFalse(member.isAlive(), "still running: " + member.logTail());
            assertEquals(1, member.exitCode());
            assertTrue(member.logTail().contains("--enable-distributed-tracing=true is not supported by this server yet"),
                    member.logTail());
        }
    }
}
