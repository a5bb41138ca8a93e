package io.etcdj.server.it;

import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One Watch stream; responses are queued as they arrive and taken with a bounded wait. */
final class WatchSession implements AutoCloseable {
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    private final StreamObserver<WatchRequest> requests;

    WatchSession(GrpcEndpoint endpoint) {
        requests = endpoint.watch().watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse value) {
                received.add(value);
            }

            @Override
            public void onError(Throwable t) {
                received.add(t);
            }

            @Override
            public void onCompleted() {
                received.add("stream completed");
            }
        });
    }

    void send(WatchRequest request) {
        requests.onNext(request);
    }

    /** The next {@code n} responses; fails with what arrived if they do not all come within {@code timeoutMs}. */
    List<WatchResponse> take(int n, long timeoutMs) throws InterruptedException {
        List<WatchResponse> got = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (got.size() < n) {
            Object next = received.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            if (next == null) {
                throw new AssertionError("expected " + n + " watch responses within " + timeoutMs + " ms, got " + got);
            }
            if (!(next instanceof WatchResponse r)) {
                throw new AssertionError("watch stream ended (" + next + ") after " + got);
            }
            got.add(r);
        }
        return got;
    }

    /** Takes responses until their events add up to {@code events}; batching may differ between servers. */
    List<WatchResponse> takeEvents(int events, long timeoutMs) throws InterruptedException {
        List<WatchResponse> got = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeoutMs;
        int seen = 0;
        while (seen < events) {
            WatchResponse r = take(1, Math.max(1, deadline - System.currentTimeMillis())).get(0);
            got.add(r);
            seen += r.getEventsCount();
        }
        return got;
    }

    /** Nothing further arrives within {@code quietMs} (used after the last expected response). */
    Object poll(long quietMs) throws InterruptedException {
        return received.poll(quietMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            requests.onCompleted();
        } catch (RuntimeException ignored) {
            // the stream may already be gone; closing must not hide the test's result
        }
    }
}
