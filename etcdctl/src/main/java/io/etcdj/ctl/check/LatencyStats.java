package io.etcdj.ctl.check;

import java.util.Map;
import java.util.TreeMap;

/**
 * Results of a load run: successful request latencies (for throughput, slowest and standard
 * deviation, as etcd's benchmark report computes them) and failures counted by error text.
 * Thread-safe; writers record concurrently.
 */
public final class LatencyStats {

    private long count;
    private double sum;
    private double sumOfSquares;
    private double slowest;
    private final Map<String, Integer> errors = new TreeMap<>();

    public synchronized void success(double seconds) {
        count++;
        sum += seconds;
        sumOfSquares += seconds * seconds;
        slowest = Math.max(slowest, seconds);
    }

    public synchronized void failure(String error) {
        errors.merge(error, 1, Integer::sum);
    }

    /** Successful requests per second over the run's wall time. */
    public synchronized double requestsPerSecond(double totalSeconds) {
        return totalSeconds <= 0 ? 0 : count / totalSeconds;
    }

    public synchronized double slowest() {
        return slowest;
    }

    /** Population standard deviation of the successful latencies. */
    public synchronized double stddev() {
        if (count == 0) {
            return 0;
        }
        double mean = sum / count;
        return Math.sqrt(Math.max(0, sumOfSquares / count - mean * mean));
    }

    public synchronized Map<String, Integer> errors() {
        return new TreeMap<>(errors);
    }
}
