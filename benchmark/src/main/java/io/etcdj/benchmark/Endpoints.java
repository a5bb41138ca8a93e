package io.etcdj.benchmark;

import java.util.ArrayList;
import java.util.List;

/** Turns etcd-style endpoint strings ("127.0.0.1:2379", "http://host:port") into gRPC targets. */
final class Endpoints {
    private Endpoints() {
    }

    static List<String> parse(List<String> endpoints) {
        List<String> targets = new ArrayList<>();
        for (String raw : endpoints) {
            String e = raw.trim();
            if (e.isEmpty()) {
                continue;
            }
            if (e.startsWith("https://") || e.startsWith("unixs://")) {
                throw new BenchmarkException("TLS endpoints are not supported by this benchmark: " + e);
            }
            if (e.startsWith("http://")) {
                e = e.substring("http://".length());
            }
            while (e.endsWith("/")) {
                e = e.substring(0, e.length() - 1);
            }
            int colon = e.lastIndexOf(':');
            if (colon <= 0 || colon == e.length() - 1 || !e.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                throw new BenchmarkException("invalid endpoint \"" + raw + "\": expected host:port");
            }
            targets.add(e);
        }
        if (targets.isEmpty()) {
            throw new BenchmarkException("no endpoints given");
        }
        return List.copyOf(targets);
    }
}
