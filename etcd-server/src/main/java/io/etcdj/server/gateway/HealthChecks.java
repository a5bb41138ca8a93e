package io.etcdj.server.gateway;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * etcd 3.6's /livez and /readyz: named checks run in order, {@code ?exclude=name} skips one,
 * {@code ?verbose} lists every check; a failing check answers 503 with the list and
 * "livez check failed" / "readyz check failed", as Kubernetes' healthz handlers print it.
 */
public final class HealthChecks {
    /** A check's outcome: an empty string when it passed, else why it failed. */
    public interface Check extends Supplier<CompletableFuture<String>> {
    }

    private final String name;
    private final Map<String, Check> checks = new LinkedHashMap<>();

    public HealthChecks(String name) {
        this.name = name;
    }

    public HealthChecks add(String check, Check c) {
        checks.put(check, c);
        return this;
    }

    /** The HTTP answer: status code and text body. */
    public record Answer(int status, String body) {
    }

    public CompletableFuture<Answer> run(List<String> exclude, boolean verbose) {
        List<String> unknown = new ArrayList<>();
        for (String e : exclude) {
            for (String n : e.split(",")) {
                if (!n.isBlank() && !checks.containsKey(n.trim())) {
                    unknown.add(n.trim());
                }
            }
        }
        List<String> excluded = exclude.stream().flatMap(e -> List.of(e.split(",")).stream()).map(String::trim).toList();
        Map<String, CompletableFuture<String>> running = new LinkedHashMap<>();
        for (Map.Entry<String, Check> c : checks.entrySet()) {
            if (!excluded.contains(c.getKey())) {
                running.put(c.getKey(), c.getValue().get().exceptionally(t -> String.valueOf(t.getMessage())));
            }
        }
        return CompletableFuture.allOf(running.values().toArray(CompletableFuture[]::new)).thenApply(x -> {
            StringBuilder sb = new StringBuilder();
            boolean failed = false;
            for (String check : checks.keySet()) {
                CompletableFuture<String> f = running.get(check);
                if (f == null) {
                    sb.append("[+]").append(check).append(" excluded: ok\n");
                    continue;
                }
                String reason = f.join();
                if (reason.isEmpty()) {
                    sb.append("[+]").append(check).append(" ok\n");
                } else {
                    failed = true;
                    sb.append("[-]").append(check).append(" failed: ").append(reason).append('\n');
                }
            }
            if (!unknown.isEmpty()) {
                sb.append("warn: some health checks cannot be excluded: no matches for ");
                sb.append(String.join(",", unknown.stream().map(u -> "\"" + u + "\"").toList())).append('\n');
            }
            if (failed) {
                return new Answer(503, sb + name + " check failed\n");
            }
            return new Answer(200, verbose ? sb + name + " check passed\n" : "ok");
        });
    }
}
