package io.etcdj.benchmark;

import io.grpc.Status;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs {@code total} requests through {@code clients} concurrent clients. Each client has at most
 * one request outstanding: when one completes, the same client claims the next request number
 * from a shared counter, so faster clients do more of the work, like etcd's benchmark workers
 * draining one shared request queue.
 */
final class LoadRunner {
    private static final long FAILED = -1;

    private final int clients;
    private final long total;
    private final RequestSender sender;
    private final AtomicLong nextSeq = new AtomicLong();
    private final long[] latencies;
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final CountDownLatch clientsDone;
    private final AtomicLong lastCompletion = new AtomicLong();

    LoadRunner(int clients, long total, RequestSender sender) {
        if (clients < 1) {
            throw new BenchmarkException("--clients must be at least 1");
        }
        if (total < 1 || total > Integer.MAX_VALUE - 8) {
            throw new BenchmarkException("--total must be between 1 and " + (Integer.MAX_VALUE - 8));
        }
        this.clients = clients;
        this.total = total;
        this.sender = sender;
        this.latencies = new long[(int) total];
        this.clientsDone = new CountDownLatch(clients);
    }

    RunResult run() throws InterruptedException {
        long start = System.nanoTime();
        lastCompletion.set(start);
        for (int c = 0; c < clients; c++) {
            drive(new Client(c));
        }
        clientsDone.await();
        long elapsed = lastCompletion.get() - start;
        long[] ok = Arrays.stream(latencies).filter(l -> l != FAILED).toArray();
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        return new RunResult(ok, errorCounts, elapsed);
    }

    /**
     * Sends requests for one client until the shared counter runs out. A request that completes
     * inside {@code send} (a fast failure, or a synchronous test sender) is followed by the next
     * one in this loop rather than by recursion from the callback, so the stack stays flat.
     */
    private void drive(Client client) {
        while (true) {
            long seq = nextSeq.getAndIncrement();
            if (seq >= total) {
                clientsDone.countDown();
                return;
            }
            client.state.set(Client.SENDING);
            long sentAt = System.nanoTime();
            sender.send(client.id, seq, new Completion() {
                @Override
                public void succeeded() {
                    finish(seq, System.nanoTime() - sentAt);
                }

                @Override
                public void failed(Throwable error) {
                    recordError(error);
                    finish(seq, FAILED);
                }

                private void finish(long s, long latency) {
                    latencies[(int) s] = latency;
                    lastCompletion.accumulateAndGet(System.nanoTime(), Math::max);
                    if (!client.state.compareAndSet(Client.SENDING, Client.COMPLETED_INLINE)) {
                        drive(client);
                    }
                }
            });
            if (client.state.compareAndSet(Client.SENDING, Client.WAITING)) {
                return; // the completion callback continues this client
            }
        }
    }

    private void recordError(Throwable error) {
        Status status = Status.fromThrowable(error);
        String text = status.getCode() == Status.Code.UNKNOWN && status.getDescription() == null
                ? String.valueOf(error)
                : "rpc error: code = " + codeName(status.getCode()) + " desc = " + status.getDescription();
        errors.computeIfAbsent(text, k -> new LongAdder()).increment();
    }

    /** gRPC code names as Go prints them (e.g. DeadlineExceeded), as etcd's tool reports errors. */
    private static String codeName(Status.Code code) {
        StringBuilder sb = new StringBuilder();
        for (String part : code.name().split("_")) {
            sb.append(part.charAt(0)).append(part.substring(1).toLowerCase());
        }
        return sb.toString();
    }

    private static final class Client {
        static final int SENDING = 0;
        static final int WAITING = 1;
        static final int COMPLETED_INLINE = 2;

        final int id;
        final AtomicInteger state = new AtomicInteger(WAITING);

        Client(int id) {
            this.id = id;
        }
    }
}
