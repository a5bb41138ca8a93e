package io.etcdj.ctl.check;

import com.google.protobuf.ByteString;
import io.etcdj.client.EtcdClient;

/** The write load of check datascale: the model's number of random 512-byte keys with 512-byte values, as fast as the writers go. */
public final class DatascaleRun {

    private static final int KEY_SIZE = 512;
    private static final ByteString VALUE = ByteString.copyFrom(new byte[512]);

    private final EtcdClient client;
    private final DatascaleLoad load;
    private final ByteString prefix;

    public DatascaleRun(EtcdClient client, DatascaleLoad load, String prefix) {
        this.client = client;
        this.load = load;
        this.prefix = ByteString.copyFromUtf8(prefix);
    }

    /** Writes every pair, counting each on {@code progress}; returns the latencies and errors. */
    public LatencyStats run(ProgressCounter progress) throws InterruptedException {
        LatencyStats stats = new LatencyStats();
        WriterPool pool = new WriterPool(client, load.clients(), stats, progress::increment);
        try {
            for (int i = 0; i < load.pairs(); i++) {
                pool.submit(WriterPool.randomPut(prefix, KEY_SIZE, VALUE));
            }
        } finally {
            pool.finish();
        }
        return stats;
    }
}
