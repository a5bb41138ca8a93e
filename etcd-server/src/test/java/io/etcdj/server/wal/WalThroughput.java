package io.etcdj.server.wal;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A manual throughput probe, not a test: appends entries in batches of 1 and 100 for a few
 * seconds each and prints fsyncs/s, entries/s and MB/s. The figures in docs/wal.md come from it.
 *
 * <pre>java -cp target/classes:target/test-classes:target/lib/* io.etcdj.server.wal.WalThroughput DIR [seconds] [entryBytes]</pre>
 */
public final class WalThroughput {

    private WalThroughput() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: WalThroughput DIR [seconds] [entryBytes]");
            System.exit(2);
        }
        Path base = Path.of(args[0]);
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 5;
        int entryBytes = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        System.out.printf("%-6s %10s %12s %8s %14s%n", "batch", "fsyncs/s", "entries/s", "MB/s", "fsync p50/max");
        for (int batch : new int[] {1, 10, 100}) {
            run(base.resolve("batch-" + batch), batch, seconds, entryBytes);
        }
    }

    private static void run(Path dir, int batch, long seconds, int entryBytes) throws IOException {
        List<Long> fsyncs = new ArrayList<>();
        AtomicLong bytes = new AtomicLong();
        WalOptions opts = WalOptions.builder().fsyncDurationNanos(fsyncs::add).build();
        ByteString payload = ByteString.copyFrom(new byte[entryBytes]);
        long index = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long began = System.nanoTime();
        try (Wal wal = Wal.create(dir, new byte[16], opts)) {
            while (System.nanoTime() < deadline) {
                List<Entry> entries = new ArrayList<>(batch);
                for (int i = 0; i < batch; i++) {
                    entries.add(Entry.newBuilder().setTerm(1).setIndex(++index).setData(payload).build());
                }
                wal.save(HardState.newBuilder().setTerm(1).setVote(1).setCommit(index - batch).build(), entries);
                bytes.addAndGet((long) batch * entryBytes);
            }
        }
        double elapsed = (System.nanoTime() - began) / 1e9;
        fsyncs.sort(null);
        System.out.printf("%-6d %10.0f %12.0f %8.1f %6.2f/%.1f ms%n", batch, fsyncs.size() / elapsed, index / elapsed,
                bytes.get() / elapsed / 1e6, fsyncs.get(fsyncs.size() / 2) / 1e6, fsyncs.get(fsyncs.size() - 1) / 1e6);
    }
}
