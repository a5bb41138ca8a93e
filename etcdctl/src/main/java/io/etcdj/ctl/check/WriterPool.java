package io.etcdj.ctl.check;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Concurrent writers fed through a queue as deep as their number (so a producer waits when all are
 * busy, as etcdctl's channel does); each put's latency or error goes to the stats, and
 * {@code afterEach} runs after every put (the datascale progress counter).
 */
final class WriterPool {

    private static final PutRequest END = PutRequest.getDefaultInstance();

    private final EtcdClient client;
    private final LatencyStats stats;
    private final Runnable afterEach;
    private final BlockingQueue<PutRequest> queue;
    private final List<Thread> writers = new ArrayList<>();

    WriterPool(EtcdClient client, int size, LatencyStats stats, Runnable afterEach) {
        this.client = client;
        this.stats = stats;
        this.afterEach = afterEach;
        this.queue = new ArrayBlockingQueue<>(size);
        for (int i = 0; i < size; i++) {
            Thread t = new Thread(this::write, "check-writer-" + i);
            t.setDaemon(true);
            writers.add(t);
        }
        writers.forEach(Thread::start);
    }

    void submit(PutRequest put) throws InterruptedException {
        queue.put(put);
    }

    /** Lets the writers finish what is queued, then waits for them. */
    void finish() throws InterruptedException {
        for (int i = 0; i < writers.size(); i++) {
            queue.put(END);
        }
        for (Thread t : writers) {
            t.join();
        }
    }

    /** A put of a random key (Go's binary.PutVarint of a random number, zero-padded) under the prefix. */
    static PutRequest randomPut(ByteString prefix, int keySize, ByteString value) {
        byte[] key = new byte[keySize];
        putVarint(key, ThreadLocalRandom.current().nextLong(Long.MAX_VALUE));
        return PutRequest.newBuilder().setKey(prefix.concat(ByteString.copyFrom(key))).setValue(value).build();
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

    private void write() {
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
                afterEach.run();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
