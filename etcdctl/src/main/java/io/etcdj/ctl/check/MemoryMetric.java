package io.etcdj.ctl.check;

import io.etcdj.ctl.printer.Out;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads a member's {@code process_resident_memory_bytes} from its /metrics page, as check datascale
 * does; a failure is printed (as etcdctl prints it) and reported as 0.
 */
public final class MemoryMetric {

    private static final String KEY = "process_resident_memory_bytes";

    private MemoryMetric() {
    }

    public static double residentBytes(String endpoint, Out out) {
        String host = endpoint.startsWith("http://") || endpoint.startsWith("https://") ? endpoint : "http://" + endpoint;
        String url = host + "/metrics";
        String body;
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            body = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException | IllegalArgumentException e) {
            // Java's connect failures often carry no message; name the exception then.
            String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            out.println("fetch error: Get \"" + url + "\": " + why);
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        String value = null;
        for (String line : body.split("\n")) {
            if (line.startsWith(KEY)) {
                value = line.substring(KEY.length()).trim();
                break;
            }
        }
        if (value == null || value.isEmpty()) {
            out.println("could not find: " + KEY);
            return 0;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            out.println("parsing error: strconv.ParseFloat: parsing \"" + value + "\": invalid syntax");
            return 0;
        }
    }
}
