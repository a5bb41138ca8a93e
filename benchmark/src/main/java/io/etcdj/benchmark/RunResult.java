package io.etcdj.benchmark;

import java.util.Map;

/**
 * What one run measured: the latencies of the successful requests (nanoseconds, in request
 * order), how many requests failed with which error, and the wall-clock time of the whole run.
 */
record RunResult(long[] latenciesNanos, Map<String, Long> errors, long elapsedNanos) {

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
