package io.etcdj.benchmark;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code watch-latency}: opens {@code --streams} watch streams with {@code --watchers-per-stream}
 * watchers each on one key, then puts that key {@code --put-total} times at {@code --put-rate} per
 * second. Each latency is from sending a put to one watcher receiving its event, so a run records
 * put-total x watchers latencies. The put's number travels in the first 8 bytes of its value,
 * which is how an event is matched to the put that caused it.
 */
@Command(name = "watch-latency", mixinStandardHelpOptions = true, description = "Benchmark watch latency")
final class WatchLatencyCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Spec
    CommandSpec spec;

    @Option(names = "--put-total", defaultValue = "1000", description = "Total number of put requests (default: ${DEFAULT-VALUE})")
    int putTotal;

    @Option(names = "--put-rate", defaultValue = "100", description = "Number of keys to put per second (default: ${DEFAULT-VALUE})")
    int putRate;

    @Option(names = "--streams", defaultValue = "10", description = "Total watch streams (default: ${DEFAULT-VALUE})")
    int streams;

    @Option(names = "--watchers-per-stream", defaultValue = "10", description = "Total watchers per stream (default: ${DEFAULT-VALUE})")
    int watchersPerStream;

    @Option(names = "--prevkv", description = "PrevKV enabled on watch requests")
    boolean prevKv;

    @Option(names = "--key-size", defaultValue = "32", description = "Key size of watch request (default: ${DEFAULT-VALUE})")
    int keySize;

    @Option(names = "--val-size", defaultValue = "32", description = "Value size of put request (default: ${DEFAULT-VALUE})")
    int valSize;

    @Option(names = "--wait-timeout", defaultValue = "30",
            description = "Seconds to wait for watchers to be created, and for events after the last put (default: ${DEFAULT-VALUE})")
    long waitSeconds;

    @Override
    public Integer call() throws InterruptedException {
        validate();
        ConnectionOptions c = root.connection;
        c.validate();
        List<String> targets = Endpoints.parse(c.endpoints);
        ByteString key = new KeyMaker(keySize, 1, true).key(0);
        int watchers = streams * watchersPerStream;
        long expectedEvents = (long) putTotal * watchers;
        if (expectedEvents > Integer.MAX_VALUE - 8) {
            throw new BenchmarkException("--put-total x --streams x --watchers-per-stream is too large");
        }
        AtomicLongArray sentAt = new AtomicLongArray(putTotal);
        AtomicLongArray latencies = new AtomicLongArray((int) expectedEvents);
        AtomicLong received = new AtomicLong();
        AtomicLong written = new AtomicLong();
        AtomicLong lastEventAt = new AtomicLong();
        CountDownLatch created = new CountDownLatch(watchers);
        CountDownLatch allEvents = new CountDownLatch(1);
        Map<String, Long> errors = new TreeMap<>();

        try (ChannelPool pool = new ChannelPool(targets, c.conns)) {
            List<StreamObserver<WatchRequest>> requestStreams = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                StreamObserver<WatchRequest> requests = WatchGrpc.newStub(pool.forClient(s)).watch(
                        new EventTimer(sentAt, latencies, received, written, lastEventAt, created, allEvents, expectedEvents));
                requestStreams.add(requests);
                for (int w = 0; w < watchersPerStream; w++) {
                    requests.onNext(WatchRequest.newBuilder().setCreateRequest(
                            WatchCreateRequest.newBuilder().setKey(key).setPrevKv(prevKv)).build());
                }
            }
            if (!created.await(waitSeconds, TimeUnit.SECONDS)) {
                throw new BenchmarkException("watchers were not created within " + waitSeconds
                        + "s (" + (watchers - created.getCount()) + " of " + watchers + ")");
            }
            long start = System.nanoTime();
            putPaced(KVGrpc.newBlockingStub(pool.forClient(0)), key, sentAt, start, errors);
            allEvents.await(waitSeconds, TimeUnit.SECONDS);
            requestStreams.forEach(StreamObserver::onCompleted);
            long[] ok = new long[latencies.length()];
            int got = 0;
            for (int i = 0; i < ok.length; i++) {
                long l = latencies.get(i);
                if (l > 0) {
                    ok[got++] = l;
                }
            }
            ok = Arrays.copyOf(ok, got);
            if (got < expectedEvents) {
                errors.merge("watch event not received within " + waitSeconds + "s",
                        expectedEvents - got, Long::sum);
            }
            long elapsed = Math.max(0, lastEventAt.get() - start);
            RunSummary summary = new RunSummary("watch-latency", c.clients, c.conns, expectedEvents,
                    new LatencyStats(ok, elapsed), errors);
            PrintWriter out = spec.commandLine().getOut();
            ReportPrinter.print(out, summary);
            return got == 0 ? 1 : 0;
        }
    }

    private void validate() {
        if (putTotal < 1 || putRate < 1 || streams < 1 || watchersPerStream < 1) {
            throw new BenchmarkException("--put-total, --put-rate, --streams and --watchers-per-stream must be at least 1");
        }
        if (waitSeconds < 1) {
            throw new BenchmarkException("--wait-timeout must be at least 1");
        }
        if (valSize < Long.BYTES) {
            throw new BenchmarkException("--val-size must be at least 8: the put number travels in the value");
        }
    }

    /** Sends the puts one after another, each no earlier than its slot at --put-rate. */
    private void putPaced(KVGrpc.KVBlockingStub kv, ByteString key, AtomicLongArray sentAt, long start,
                          Map<String, Long> errors) {
        long interval = TimeUnit.SECONDS.toNanos(1) / putRate;
        byte[] value = new byte[valSize];
        for (int i = 0; i < putTotal; i++) {
            long slot = start + i * interval;
            long wait = slot - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            ByteBuffer.wrap(value).putLong(i);
            sentAt.set(i, System.nanoTime());
            try {
                kv.put(PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFrom(value)).build());
            } catch (StatusRuntimeException e) {
                errors.merge("put: " + e.getStatus().getCode() + " " + e.getStatus().getDescription(), 1L, Long::sum);
            }
        }
    }

    /** Receives one stream's responses: counts created watchers and times every event. */
    private static final class EventTimer implements StreamObserver<WatchResponse> {
        private final AtomicLongArray sentAt;
        private final AtomicLongArray latencies;
        private final AtomicLong written;
        private final AtomicLong received;
        private final AtomicLong lastEventAt;
        private final CountDownLatch created;
        private final CountDownLatch allEvents;
        private final long expected;

        EventTimer(AtomicLongArray sentAt, AtomicLongArray latencies, AtomicLong received, AtomicLong written,
                   AtomicLong lastEventAt,
                   CountDownLatch created, CountDownLatch allEvents, long expected) {
            this.sentAt = sentAt;
            this.latencies = latencies;
            this.received = received;
            this.written = written;
            this.lastEventAt = lastEventAt;
            this.created = created;
            this.allEvents = allEvents;
            this.expected = expected;
        }

        @Override
        public void onNext(WatchResponse response) {
            long now = System.nanoTime();
            if (response.getCreated()) {
                created.countDown();
            }
            for (Event e : response.getEventsList()) {
                ByteString v = e.getKv().getValue();
                if (e.getType() != Event.EventType.PUT || v.size() < Long.BYTES) {
                    continue; // not one of this run's puts
                }
                long put = v.substring(0, Long.BYTES).asReadOnlyByteBuffer().getLong();
                if (put < 0 || put >= sentAt.length()) {
                    continue;
                }
                long slot = received.getAndIncrement();
                if (slot < expected) {
                    // At least 1 ns, so that an unwritten slot (0) is never taken for a latency.
                    latencies.set((int) slot, Math.max(1, now - sentAt.get((int) put)));
                    lastEventAt.accumulateAndGet(now, Math::max);
                    if (written.incrementAndGet() == expected) {
                        allEvents.countDown();
                    }
                }
            }
        }

        @Override
        public void onError(Throwable t) {
            // A broken stream shows up as missing events in the report.
        }

        @Override
        public void onCompleted() {
            // The server ends streams only on shutdown; missing events are reported.
        }
    }
}
