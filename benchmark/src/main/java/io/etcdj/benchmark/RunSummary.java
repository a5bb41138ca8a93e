package io.etcdj.benchmark;

import java.util.Map;

/** A finished run with the labels its report needs. */
record RunSummary(String name, int clients, int conns, long total, LatencyStats stats, Map<String, Long> errors) {

    static RunSummary of(String name, int clients, int conns, long total, RunResult result) {
        return new RunSummary(name, clients, conns, total,
                new LatencyStats(result.latenciesNanos(), result.elapsedNanos()), result.errors());
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
