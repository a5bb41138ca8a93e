package io.etcdj.server.it;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.harness.EtcdProcess;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Many clients writing large values as fast as the member answers, as etcd's {@code benchmark put}
 * does (each client one request at a time, clients shared over a few connections), while /health
 * is probed and the member's resident memory sampled; afterwards every acknowledged key is read
 * back. The same load runs against either server, so their figures can be set side by side.
 */
final class OverloadLoad {
    /** Longest a client waits for one answer: well past etcd's own request timeout (about 7 s). */
    private static final long CALL_DEADLINE_SECONDS = 30;

    /** How the load is shaped. */
    record Shape(int clients, int connections, int valueBytes, Duration length) {
    }

    /** What a run saw. */
    record Outcome(String server, Shape shape, long acked, double perSecond, Map<String, Long> errors,
                   long healthProbes, long healthAnswered, long healthOk, long healthMaxMillis,
                   long peakRssBytes, long peakAnonBytes, long lost, boolean aliveAfter, List<String> lostExamples) {

        String line() {
            return String.format("%s: %d clients x %d B, %d s: %d acknowledged (%.0f req/s), errors %s, "
                            + "/health %d/%d answered (%d healthy, slowest %d ms), peak RSS %d MB (anonymous %d MB), lost %d, alive %s",
                    server, shape.clients(), shape.valueBytes(), shape.length().toSeconds(), acked, perSecond, errors,
                    healthAnswered, healthProbes, healthOk, healthMaxMillis, peakRssBytes >> 20, peakAnonBytes >> 20, lost, aliveAfter);
        }
    }

    private OverloadLoad() {
    }

    static Outcome run(String name, EtcdProcess member, Shape shape) throws Exception {
        Map<String, Long> acked = new ConcurrentHashMap<>();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<ManagedChannel> channels = new ArrayList<>();
        for (int i = 0; i < shape.connections(); i++) {
            channels.add(NettyChannelBuilder.forTarget(member.endpoint()).usePlaintext()
                    .maxInboundMessageSize(64 << 20).build());
        }
        RssSampler rss = new RssSampler(member.pid());
        HealthProber health = new HealthProber(URI.create("http://" + member.endpoint() + "/health"));
        Thread rssThread = daemon("rss", () -> rss.sampleUntil(stop));
        Thread healthThread = daemon("health", () -> health.probeUntil(stop));
        List<Thread> clients = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + shape.length().toNanos();
        for (int c = 0; c < shape.clients(); c++) {
            KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channels.get(c % channels.size()));
            int client = c;
            clients.add(daemon("client-" + c, () -> {
                for (long seq = 0; System.nanoTime() < end; seq++) {
                    String key = "overload/" + client + "/" + seq;
                    try {
                        PutResponse r = kv.withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS)
                                .put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                                        .setValue(valueOf(key, shape.valueBytes())).build());
                        acked.put(key, r.getHeader().getRevision());
                    } catch (StatusRuntimeException e) {
                        errors.computeIfAbsent(e.getStatus().getCode() + ": " + e.getStatus().getDescription(),
                                k -> new LongAdder()).increment();
                    }
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        stop.set(true);
        healthThread.join();
        rssThread.join();
        boolean alive = member.isAlive();
        List<String> lostExamples = new ArrayList<>();
        long lost = alive ? readBack(channels.get(0), acked, shape.valueBytes(), lostExamples) : acked.size();
        for (ManagedChannel ch : channels) {
            ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        return new Outcome(name, shape, acked.size(), acked.size() / seconds, errorCounts, health.probes.sum(),
                health.answered.sum(), health.ok.sum(), health.slowestMillis.get(), Math.max(rss.peak.get(), rss.highWaterMark()),
                rss.peakAnon.get(), lost, alive, lostExamples);
    }

    /** Every acknowledged key, read back linearizably: missing, or with another value or revision, counts as lost. */
    private static long readBack(ManagedChannel channel, Map<String, Long> acked, int valueBytes, List<String> examples) {
        KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
        long lost = 0;
        for (Map.Entry<String, Long> e : acked.entrySet()) {
            RangeResponse r = kv.withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS)
                    .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(e.getKey())).build());
            boolean ok = r.getKvsCount() == 1 && r.getKvs(0).getModRevision() == e.getValue()
                    && r.getKvs(0).getValue().equals(valueOf(e.getKey(), valueBytes));
            if (!ok) {
                lost++;
                if (examples.size() < 5) {
                    examples.add(e.getKey() + " acknowledged at revision " + e.getValue() + ", read back " + r.getKvsList());
                }
            }
        }
        return lost;
    }

    /** A value that differs per key, so a value read back under the wrong key is noticed. */
    static ByteString valueOf(String key, int size) {
        byte[] v = new byte[size];
        Arrays.fill(v, (byte) ('a' + Math.floorMod(key.hashCode(), 26)));
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(k, 0, v, 0, Math.min(k.length, size));
        return ByteString.copyFrom(v);
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The member's resident set, sampled from /proc every 100 ms, its high-water mark, and its anonymous part. */
    private static final class RssSampler {
        private final Path status;
        final AtomicLong peak = new AtomicLong();
        /** Without the backend file's mapped pages (LMDB and bbolt both map the whole file). */
        final AtomicLong peakAnon = new AtomicLong();

        RssSampler(long pid) {
            this.status = Path.of("/proc", Long.toString(pid), "status");
        }

        void sampleUntil(AtomicBoolean stop) {
            while (!stop.get()) {
                peak.accumulateAndGet(field("VmRSS:"), Math::max);
                peakAnon.accumulateAndGet(field("RssAnon:"), Math::max);
                sleep(100);
            }
        }

        long highWaterMark() {
            return field("VmHWM:");
        }

        private long field(String name) {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith(name)) {
                        return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]) << 10;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the process is gone: its last sample stands
            }
            return 0;
        }
    }

    /** GET /health every 250 ms with a 5 s timeout: how many probes were answered, how many healthy. */
    private static final class HealthProber {
        private final URI uri;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        final LongAdder probes = new LongAdder();
        final LongAdder answered = new LongAdder();
        final LongAdder ok = new LongAdder();
        final AtomicLong slowestMillis = new AtomicLong();

        HealthProber(URI uri) {
            this.uri = uri;
        }

        void probeUntil(AtomicBoolean stop) {
            while (!stop.get()) {
                probes.increment();
                long t0 = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    answered.increment();
                    if (r.statusCode() == 200 && r.body().contains("\"health\":\"true\"")) {
                        ok.increment();
                    }
                } catch (IOException e) {
                    // not answered in time, or the connection failed: counted as unanswered
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                slowestMillis.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
                sleep(250);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
