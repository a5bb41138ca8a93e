package io.etcdj.harness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/** Waits until a member's status (HTTP gateway, which both etcd and ours serve) names a leader. */
public final class LeaderProbe {
    /** A non-zero leader in the gateway's status JSON (uint64 fields are strings there). */
    private static final Pattern LEADER = Pattern.compile("\"leader\":\"[1-9][0-9]*\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LeaderProbe() {
    }

    /** Returns null once a leader is reported, else a description of the last answer when time or the member ran out. */
    public static String await(String clientUrl, long timeoutMs, BooleanSupplier stillRunning) throws InterruptedException {
        HttpRequest status = HttpRequest.newBuilder(URI.create(clientUrl + "/v3/maintenance/status"))
                .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        try {
            Eventually.until("a leader in the status of " + clientUrl, Duration.ofMillis(timeoutMs), Duration.ofMillis(50),
                    () -> {
                        if (!stillRunning.getAsBoolean()) {
                            throw new Eventually.GiveUp("the member stopped running");
                        }
                        String body = HTTP.send(status, HttpResponse.BodyHandlers.ofString()).body();
                        if (!LEADER.matcher(body).find()) {
                            throw new IllegalStateException("status without a leader: " + body);
                        }
                        return true;
                    });
            return null;
        } catch (AssertionError e) {
            return e.getMessage();
        }
    }
}
