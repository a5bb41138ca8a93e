package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class LoadRunnerTest {

    @Test
    void requestsCompletingInsideSendDoNotGrowTheStack() throws Exception {
        AtomicInteger sent = new AtomicInteger();
        // Far more inline completions than a recursive driver could survive.
        RunResult r = new LoadRunner(1, 500_000, (client, seq, done) -> {
            sent.incrementAndGet();
            done.succeeded();
        }).run();
        assertEquals(500_000, sent.get());
        assertEquals(500_000, r.latenciesNanos().length);
        assertEquals(0, r.errorCount());
    }

    @Test
    void everyRequestNumberIsSentOnceAndClientsNeverOverlapThemselves() throws Exception {
        int clients = 8;
        int total = 20_000;
        AtomicIntegerArray timesSent = new AtomicIntegerArray(total);
        AtomicIntegerArray inFlightPerClient = new AtomicIntegerArray(clients);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            RunResult r = new LoadRunner(clients, total, (client, seq, done) -> {
                timesSent.incrementAndGet((int) seq);
                if (inFlightPerClient.incrementAndGet(client) != 1) {
                    overlaps.incrementAndGet();
                }
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                pool.execute(() -> {
                    inFlight.decrementAndGet();
                    inFlightPerClient.decrementAndGet(client);
                    done.succeeded();
                });
            }).run();
            assertEquals(total, r.latenciesNanos().length);
            for (int i = 0; i < total; i++) {
                assertEquals(1, timesSent.get(i), "request " + i);
            }
            assertEquals(0, overlaps.get(), "a client had two requests in flight");
            assertTrue(maxInFlight.get() <= clients, "in flight: " + maxInFlight.get());
            assertTrue(r.elapsedNanos() > 0);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void failuresAreCountedByErrorTextAndLeftOutOfLatencies() throws Exception {
        RunResult r = new LoadRunner(3, 10, (client, seq, done) -> {
            if (seq % 2 == 0) {
                done.failed(Status.UNAVAILABLE.withDescription("connection refused").asRuntimeException());
            } else if (seq == 9) {
                done.failed(new IllegalStateException("odd"));
            } else {
                done.succeeded();
            }
        }).run();
        assertEquals(4, r.latenciesNanos().length);
        assertEquals(Map.of("rpc error: code = Unavailable desc = connection refused", 5L,
                "java.lang.IllegalStateException: odd", 1L), r.errors());
        assertEquals(6, r.errorCount());
    }

    @Test
    void moreClientsThanRequestsStillFinishes() throws Exception {
        RunResult r = new LoadRunner(50, 3, (client, seq, done) -> done.succeeded()).run();
        assertEquals(3, r.latenciesNanos().length);
    }

    @Test
    void rejectsNonsenseSizes() {
        RequestSender none = (client, seq, done) -> done.succeeded();
        assertThrows(BenchmarkException.class, () -> new LoadRunner(0, 10, none));
        assertThrows(BenchmarkException.class, () -> new LoadRunner(1, 0, none));
    }
}
