package io.etcdj.benchmark;

import io.grpc.stub.StreamObserver;

/** Adapts a unary gRPC response to a {@link Completion}; the response body is not needed. */
final class UnaryObserver<T> implements StreamObserver<T> {
    private final Completion done;

    UnaryObserver(Completion done) {
        this.done = done;
    }

    @Override
    public void onNext(T value) {
        // Only the arrival time matters to the benchmark.
    }

    @Override
    public void onError(Throwable t) {
        done.failed(t);
    }

    @Override
    public void onCompleted() {
        done.succeeded();
    }
}
