package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.server.metrics.Metrics;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** etcd's Watch service: one {@link WatchStream} per client stream. */
public final class WatchService extends WatchGrpc.WatchImplBase {
    private final WatchOperations server;
    private final AuthOperations auth;
    private final Metrics metrics;

    /** The member's watch service; its streams and events are counted into the member's {@code metrics}. */
    public WatchService(WatchOperations server, AuthOperations auth, Metrics metrics) {
        this.server = server;
        this.auth = auth;
        this.metrics = metrics;
    }

    @Override
    public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> out) {
        return new WatchStream(server, auth, (ServerCallStreamObserver<WatchResponse>) out, metrics);
    }
}
