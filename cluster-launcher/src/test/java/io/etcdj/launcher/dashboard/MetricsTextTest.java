package io.etcdj.launcher.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsTextTest {
    // lines as etcd 3.4 serves them with --metrics=extensive
    private static final String TEXT = """
            # HELP grpc_server_handled_total Total number of RPCs completed on the server, regardless of success or failure.
            # TYPE grpc_server_handled_total counter
            grpc_server_handled_total{grpc_code="OK",grpc_method="Put",grpc_service="etcdserverpb.KV",grpc_type="unary"} 7
            grpc_server_handled_total{grpc_code="OK",grpc_method="Range",grpc_service="etcdserverpb.KV",grpc_type="unary"} 3
            grpc_server_handled_total{grpc_code="OK",grpc_method="Status",grpc_service="etcdserverpb.Maintenance",grpc_type="unary"} 1000
            grpc_server_handled_total_other 99
            grpc_server_handling_seconds_sum{grpc_method="Put",grpc_service="etcdserverpb.KV",grpc_type="unary"} 0.009682461
            grpc_server_handling_seconds_count{grpc_method="Put",grpc_service="etcdserverpb.KV",grpc_type="unary"} 1
            etcd_server_has_leader 1
            """;

    @Test
    void sumsSamplesByNameAndLabels() {
        MetricsText m = new MetricsText(TEXT);
        assertEquals(10.0, m.sum("grpc_server_handled_total", l -> !"Status".equals(l.get("grpc_method"))));
        assertEquals(1010.0, m.sum("grpc_server_handled_total", l -> true), "a longer name is another metric");
        assertEquals(0.009682461, m.sum("grpc_server_handling_seconds_sum", l -> "Put".equals(l.get("grpc_method"))));
        assertEquals(1.0, m.sum("etcd_server_has_leader", l -> true));
    }

    @Test
    void anAbsentMetricIsNaN() {
        assertTrue(Double.isNaN(new MetricsText(TEXT).sum("grpc_server_handling_seconds_count",
                l -> "DeleteRange".equals(l.get("grpc_method")))));
    }

    @Test
    void labelValuesMayHoldEscapes() {
        assertEquals(Map.of("a", "x\"y", "b", "1,2"), MetricsText.labels("a=\"x\\\"y\",b=\"1,2\""));
    }
}
