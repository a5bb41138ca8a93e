package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointsTest {

    @Test
    void acceptsHostPortAndHttpUrls() {
        assertEquals(List.of("127.0.0.1:2379", "localhost:22379", "10.0.0.1:2379"),
                Endpoints.parse(List.of("127.0.0.1:2379", "http://localhost:22379/", " 10.0.0.1:2379 ")));
    }

    @Test
    void rejectsTlsAndMalformedEndpoints() {
        BenchmarkException tls = assertThrows(BenchmarkException.class,
                () -> Endpoints.parse(List.of("https://127.0.0.1:2379")));
        assertTrue(tls.getMessage().contains("TLS"), tls.getMessage());
        assertThrows(BenchmarkException.class, () -> Endpoints.parse(List.of("127.0.0.1")));
        assertThrows(BenchmarkException.class, () -> Endpoints.parse(List.of("127.0.0.1:port")));
        assertThrows(BenchmarkException.class, () -> Endpoints.parse(List.of("")));
    }
}
