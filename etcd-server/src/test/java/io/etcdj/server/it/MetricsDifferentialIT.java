package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * /metrics against the real etcd 3.4: every family we export (JVM families, our stand-ins for
 * go_*, aside) exists there under the same name and type, and {@code etcdctl check datascale},
 * which reads process_resident_memory_bytes, passes against our server.
 */
class MetricsDifferentialIT {

    private static Map<String, String> families(EtcdProcess m) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + m.endpoint() + "/metrics")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        Map<String, String> out = new TreeMap<>();
        r.body().lines().filter(l -> l.startsWith("# TYPE ")).forEach(l -> {
            String[] p = l.split(" ");
            out.put(p[2], p[3]);
        });
        return out;
    }

    @Test
    void ourFamiliesAreEtcdsAndCheckDatascalePasses() throws Exception {
        Map<String, String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd("--metrics=extensive")) {
            m.start();
            new Etcdctl(m.endpoint()).run("put", "metrics/k", "v").ok();
            real = families(m);
        }
        try (EtcdProcess m = EtcdProcess.ours("--metrics=extensive")) {
            m.start();
            new Etcdctl(m.endpoint()).run("put", "metrics/k", "v").ok();
            Map<String, String> ours = families(m);
            Map<String, String> unknown = new TreeMap<>();
            ours.forEach((name, type) -> {
                if (!name.startsWith("jvm_") && !type.equals(real.get(name))) {
                    unknown.put(name, type + " (etcd 3.4: " + real.get(name) + ")");
                }
            });
            assertEquals(Map.of(), unknown, "families that etcd 3.4 does not export under that name and type");
            for (String required : new String[] {"etcd_server_has_leader", "etcd_mvcc_db_total_size_in_bytes",
                    "etcd_disk_wal_fsync_duration_seconds", "grpc_server_handled_total", "grpc_server_handling_seconds",
                    "process_resident_memory_bytes", "process_open_fds"}) {
                assertTrue(ours.containsKey(required), required + " missing from ours");
            }
            Etcdctl.Result scale = new Etcdctl(m.endpoint()).run("check", "datascale");
            assertEquals(0, scale.exitCode(), scale.toString());
            assertTrue(scale.stdout().contains("PASS"), scale.toString());
        }
    }
}
