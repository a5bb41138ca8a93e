package io.etcdj.server.api;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Completes a unary gRPC call from a future or a synchronous body, mapping errors in one place. */
final class Replies {
    private Replies() {
    }

    static <T> void from(CompletableFuture<T> future, StreamObserver<T> out) {
        future.whenComplete((v, err) -> {
            if (err != null) {
                out.onError(GrpcErrors.toStatus(err));
            } else {
                out.onNext(v);
                out.onCompleted();
            }
        });
    }

    static <T> void now(Supplier<T> body, StreamObserver<T> out) {
        T v;
        try {
            v = body.get();
        } catch (RuntimeException e) {
            out.onError(GrpcErrors.toStatus(e));
            return;
        }
        out.onNext(v);
        out.onCompleted();
    }

    /** Runs a body that itself returns a future; synchronous failures fail the call too. */
    static <T> void async(Supplier<CompletableFuture<T>> body, StreamObserver<T> out) {
        CompletableFuture<T> f;
        try {
            f = body.get();
        } catch (RuntimeException e) {
            out.onError(GrpcErrors.toStatus(e));
            return;
        }
        from(f, out);
    }
}
