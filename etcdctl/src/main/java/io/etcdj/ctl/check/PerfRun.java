package io.etcdj.ctl.check;

import com.google.protobuf.ByteString;
import io.etcdj.client.EtcdClient;
import java.time.Duration;

/**
 * The write load of check perf: a pacer offers puts of random 256-byte keys (under the prefix) with
 * 1 KiB values at the model's rate to the model's number of writers. The pacer stops after the run's
 * duration; the writers finish what is queued.
 */
public final class PerfRun {

    private static final int KEY_SIZE = 256;
    private static final ByteString VALUE = ByteString.copyFrom(new byte[1024]);

    private final EtcdClient client;
    private final PerfLoad load;
    private final ByteString prefix;
    private final Duration duration;

    public PerfRun(EtcdClient client, PerfLoad load, String prefix, Duration duration) {
        this.client = client;
        this.load = load;
        this.prefix = ByteString.copyFromUtf8(prefix);
        this.duration = duration;
    }

    /** Runs the load; returns the statistics and the run's wall time in seconds. */
    public Result run() throws InterruptedException {
        LatencyStats stats = new LatencyStats();
        long start = System.nanoTime();
        WriterPool pool = new WriterPool(client, load.clients(), stats, () -> { });
        try {
            pace(pool, start);
        } finally {
            pool.finish();
        }
        return new Result(stats, (System.nanoTime() - start) / 1e9);
    }

    /** What a run measured. */
    public record Result(LatencyStats stats, double seconds) {
        public double requestsPerSecond() {
            return stats.requestsPerSecond(seconds);
        }
    }

    private void pace(WriterPool pool, long start) throws InterruptedException {
        long interval = 1_000_000_000L / load.writesPerSecond();
        long end = start + duration.toNanos();
        long next = start;
        while (true) {
            long now = System.nanoTime();
            if (next > now) {
                Thread.sleep((next - now) / 1_000_000, (int) ((next - now) % 1_000_000));
                now = System.nanoTime();
            }
            if (now >= end) {
                return;
            }
            pool.submit(WriterPool.randomPut(prefix, KEY_SIZE, VALUE));
            // A limiter with a burst of one: time lost while the queue was full is not made up.
            next = Math.max(next + interval, System.nanoTime() - interval);
        }
    }
}
