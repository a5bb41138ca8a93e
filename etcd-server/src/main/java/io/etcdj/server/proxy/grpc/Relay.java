package io.etcdj.server.proxy.grpc;

import io.grpc.stub.StreamObserver;
import java.util.function.Consumer;
import java.util.function.Function;

/** Hands an upstream unary response (mapped) or its error to the client's observer. */
final class Relay<U, C> implements StreamObserver<U> {
    private final StreamObserver<C> client;
    private final Function<U, C> map;
    private final Consumer<U> onSuccess;

    Relay(StreamObserver<C> client, Function<U, C> map, Consumer<U> onSuccess) {
        this.client = client;
        this.map = map;
        this.onSuccess = onSuccess;
    }

    @Override
    public void onNext(U value) {
        onSuccess.accept(value);
        client.onNext(map.apply(value));
    }

    @Override
    public void onError(Throwable t) {
        client.onError(t);
    }

    @Override
    public void onCompleted() {
        client.onCompleted();
    }
}
