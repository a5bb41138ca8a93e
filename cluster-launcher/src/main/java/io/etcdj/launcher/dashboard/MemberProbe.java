package io.etcdj.launcher.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Asks one member how it is: Status over gRPC (a connection kept open between probes), and
 * /health and /metrics over HTTP. Keeps the latest readings; each metrics reading after the first
 * becomes a rate point in the {@link History}.
 */
final class MemberProbe implements AutoCloseable {
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String process;
    private final URI clientUrl;
    private final Optional<ClientTls> tls;
    private final HttpClient http;
    private final History history;
    private final LongSupplier clock;
    private MemberClient client;
    private volatile StatusReading status;
    private volatile HealthReading health;
    private Counters lastCounters;

    /** Cumulative counters of one /metrics reading. */
    private record Counters(long at, double requests, double putCount, double putSeconds) {}

    MemberProbe(String process, URI clientUrl, Optional<ClientTls> tls, HttpClient http, History history,
            LongSupplier clock) {
        this.process = process;
        this.clientUrl = clientUrl;
        this.tls = tls;
        this.http = http;
        this.history = history;
        this.clock = clock;
    }

    URI clientUrl() {
        return clientUrl;
    }

    Optional<StatusReading> status() {
        return Optional.ofNullable(status);
    }

    Optional<HealthReading> health() {
        return Optional.ofNullable(health);
    }

    synchronized void probeStatus() {
        try {
            if (client == null) {
                client = new MemberClient(clientUrl, tls, CALL_TIMEOUT);
            }
            status = StatusReading.of(clock.getAsLong(), client.status());
        } catch (MemberCallException e) {
            status = StatusReading.failed(clock.getAsLong(), e.getMessage());
        } catch (RuntimeException e) {
            status = StatusReading.failed(clock.getAsLong(), String.valueOf(e.getMessage()));
        }
    }

    /** /health and /metrics; a member that does not answer simply yields no reading this time. */
    void probeHttp() {
        try {
            String body = get("/health");
            JsonNode node = JSON.readTree(body);
            health = new HealthReading(clock.getAsLong(), "true".equals(node.path("health").asText()),
                    node.path("reason").asText(""));
        } catch (IOException | RuntimeException e) {
            health = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            MetricsText metrics = new MetricsText(get("/metrics"));
            recordRates(new Counters(clock.getAsLong(),
                    // the dashboard's own Status probes are left out of the request rate
                    metrics.sum("grpc_server_handled_total", l -> !"Status".equals(l.get("grpc_method"))),
                    metrics.sum("grpc_server_handling_seconds_count", l -> "Put".equals(l.get("grpc_method"))),
                    metrics.sum("grpc_server_handling_seconds_sum", l -> "Put".equals(l.get("grpc_method")))));
        } catch (IOException | RuntimeException e) {
            lastCounters = null; // no rate across a gap
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void recordRates(Counters now) {
        Counters before = lastCounters;
        lastCounters = now;
        if (before == null || now.at <= before.at || Double.isNaN(now.requests) || now.requests < before.requests) {
            return; // first reading, or the member restarted and its counters began again
        }
        double seconds = (now.at - before.at) / 1000.0;
        double rps = (now.requests - before.requests) / seconds;
        Double putMillis = null;
        double puts = now.putCount - before.putCount;
        if (!Double.isNaN(puts) && puts > 0) {
            putMillis = (now.putSeconds - before.putSeconds) / puts * 1000.0;
        }
        history.addRate(process, now.at, rps, putMillis);
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(clientUrl.resolve(path)).timeout(CALL_TIMEOUT.multipliedBy(2)).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 && !path.equals("/health")) {
            throw new IOException(path + " answered " + response.statusCode());
        }
        return response.body();
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
