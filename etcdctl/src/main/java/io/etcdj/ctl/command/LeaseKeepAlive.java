package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.LeaseKeepAliveRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A keep-alive stream for one lease: sends a renewal, waits for the answer, and (in forever mode)
 * renews again after a third of the TTL, as etcd's client does.
 */
final class LeaseKeepAlive implements AutoCloseable {

    private static final Object END = new Object();

    private final long id;
    private final BlockingQueue<Object> responses = new LinkedBlockingQueue<>();
    private final StreamObserver<LeaseKeepAliveRequest> requests;

    LeaseKeepAlive(EtcdClient client, long id) {
        this.id = id;
        this.requests = client.leaseAsync().leaseKeepAlive(new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse value) {
                responses.add(value);
            }

            @Override
            public void onError(Throwable t) {
                responses.add(t);
            }

            @Override
            public void onCompleted() {
                responses.add(END);
            }
        });
    }

    LeaseKeepAliveResponse renewOnce(Duration timeout) {
        requests.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
        Object r = take(timeout);
        if (r instanceof LeaseKeepAliveResponse resp) {
            return resp;
        }
        throw failure(r);
    }

    void renewForever(Consumer<LeaseKeepAliveResponse> sink) {
        while (true) {
            requests.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
            Object r = take(null);
            if (!(r instanceof LeaseKeepAliveResponse resp)) {
                throw failure(r);
            }
            if (resp.getTTL() <= 0) {
                return;
            }
            sink.accept(resp);
            try {
                Thread.sleep(Math.max(500, resp.getTTL() * 1000 / 3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "context canceled");
            }
        }
    }

    private Object take(Duration timeout) {
        try {
            Object r = timeout == null ? responses.take() : responses.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return r == null ? Status.DEADLINE_EXCEEDED.asRuntimeException() : r;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "context canceled");
        }
    }

    private static RuntimeException failure(Object r) {
        if (r instanceof Throwable t) {
            return new CliException(ExitCodes.BAD_CONNECTION, EtcdClientException.from(Status.fromThrowable(t)).getMessage());
        }
        return new CliException(ExitCodes.BAD_CONNECTION, "keep-alive stream closed");
    }

    @Override
    public void close() {
        try {
            requests.onCompleted();
        } catch (IllegalStateException ignored) {
            // The stream already failed; nothing left to close.
        }
    }
}
