package io.etcdj.benchmark;

import java.util.Arrays;

/**
 * Summary statistics of one run, in seconds. Percentiles use the nearest-rank method on the
 * sorted latencies: the p-th percentile is the smallest latency that at least p% of the requests
 * did not exceed, so every reported figure is a latency that was actually observed.
 */
final class LatencyStats {
    /** The percentiles etcd's benchmark prints under "Latency distribution". */
    static final double[] PERCENTILES = {10, 25, 50, 75, 90, 95, 99, 99.9};

    private static final double NANOS_PER_SECOND = 1e9;

    private final double[] sortedSeconds;
    private final double totalSeconds;
    private final double average;
    private final double stddev;

    LatencyStats(long[] latenciesNanos, long elapsedNanos) {
        if (elapsedNanos < 0) {
            throw new IllegalArgumentException("elapsed time is negative: " + elapsedNanos);
        }
        long[] sorted = latenciesNanos.clone();
        Arrays.sort(sorted);
        this.sortedSeconds = Arrays.stream(sorted).mapToDouble(n -> n / NANOS_PER_SECOND).toArray();
        this.totalSeconds = elapsedNanos / NANOS_PER_SECOND;
        this.average = Arrays.stream(sortedSeconds).average().orElse(0);
        double sumSquares = 0;
        for (double l : sortedSeconds) {
            sumSquares += (l - average) * (l - average);
        }
        // Population standard deviation: the run is the whole population being described.
        this.stddev = sortedSeconds.length == 0 ? 0 : Math.sqrt(sumSquares / sortedSeconds.length);
    }

    int count() {
        return sortedSeconds.length;
    }

    double totalSeconds() {
        return totalSeconds;
    }

    double fastest() {
        return sortedSeconds.length == 0 ? 0 : sortedSeconds[0];
    }

    double slowest() {
        return sortedSeconds.length == 0 ? 0 : sortedSeconds[sortedSeconds.length - 1];
    }

    double average() {
        return average;
    }

    double stddev() {
        return stddev;
    }

    /** Successful requests per second of wall-clock time. */
    double requestsPerSecond() {
        return totalSeconds == 0 ? 0 : sortedSeconds.length / totalSeconds;
    }

    /** The nearest-rank percentile {@code p} (0 < p <= 100), in seconds; 0 with no latencies. */
    double percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile out of range: " + p);
        }
        if (sortedSeconds.length == 0) {
            return 0;
        }
        // Math.ceil(p/100*n) without the rounding error of p/100 (e.g. 99.9/100*1000 = 999.0000001).
        long rank = (long) Math.ceil(Math.round(p * 10) * (double) sortedSeconds.length / 1000.0 - 1e-9);
        int index = (int) Math.max(1, Math.min(sortedSeconds.length, rank)) - 1;
        return sortedSeconds[index];
    }

    /**
     * Counts per histogram bucket: {@code buckets + 1} marks evenly spaced from fastest to
     * slowest; bucket i holds latencies in (mark[i-1], mark[i]], bucket 0 those equal to fastest.
     */
    long[] histogram(int buckets, double[] marksOut) {
        long[] counts = new long[buckets + 1];
        double fastest = fastest();
        double width = (slowest() - fastest) / buckets;
        for (int i = 0; i <= buckets; i++) {
            marksOut[i] = fastest + width * i;
        }
        marksOut[buckets] = slowest();
        int bucket = 0;
        for (double l : sortedSeconds) {
            while (bucket < buckets && l > marksOut[bucket]) {
                bucket++;
            }
            counts[bucket]++;
        }
        return counts;
    }
}
