package io.etcdj.ctl.check;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The write load of check perf: a pacer offers puts of random 256-byte keys (under the prefix) with
 * 1 KiB values at the model's rate to a queue as deep as the number of writers, and that many writer
 * threads send them and record each latency or error. The pacer stops after the run's duration; the
 * writers finish what is queued.
 */
public final class PerfRun {

    private static final int KEY_SIZE = 256;
    private static final ByteString VALUE = ByteString.copyFrom(new byte[1024]);
    private static final PutRequest END = PutRequest.getDefaultInstance();

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
        BlockingQueue<PutRequest> queue = new ArrayBlockingQueue<>(load.clients());
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < load.clients(); i++) {
            Thread t = new Thread(() -> write(queue, stats), "check-perf-" + i);
            t.setDaemon(true);
            t.start();
            writers.add(t);
        }
        try {
            pace(queue, start);
        } finally {
            for (int i = 0; i < writers.size(); i++) {
                queue.put(END);
            }
        }
        for (Thread t : writers) {
            t.join();
        }
        return new Result(stats, (System.nanoTime() - start) / 1e9);
    }

    /** What a run measured. */
    public record Result(LatencyStats stats, double seconds) {
        public double requestsPerSecond() {
            return stats.requestsPerSecond(seconds);
        }
    }

    private void pace(BlockingQueue<PutRequest> queue, long start) throws InterruptedException {
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
            queue.put(put());
            // A limiter with a burst of one: time lost while the queue was full is not made up.
            next = Math.max(next + interval, System.nanoTime() - interval);
        }
    }

    private PutRequest put() {
        byte[] key = new byte[KEY_SIZE];
        putVarint(key, ThreadLocalRandom.current().nextLong(Long.MAX_VALUE));
        return PutRequest.newBuilder().setKey(prefix.concat(ByteString.copyFrom(key))).setValue(VALUE).build();
    }

    /** Go's binary.PutVarint: zig-zag, then 7 bits per byte, low bits first. */
    static void putVarint(byte[] buf, long x) {
        long ux = x << 1;
        if (x < 0) {
            ux = ~ux;
        }
        int i = 0;
        while (Long.compareUnsigned(ux, 0x80) >= 0) {
            buf[i++] = (byte) (ux | 0x80);
            ux >>>= 7;
        }
        buf[i] = (byte) ux;
    }

    private void write(BlockingQueue<PutRequest> queue, LatencyStats stats) {
        try {
            while (true) {
                PutRequest req = queue.take();
                if (req == END) {
                    return;
                }
                long t0 = System.nanoTime();
                try {
                    client.kv(s -> s.put(req));
                    stats.success((System.nanoTime() - t0) / 1e9);
                } catch (EtcdClientException e) {
                    stats.failure(e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
