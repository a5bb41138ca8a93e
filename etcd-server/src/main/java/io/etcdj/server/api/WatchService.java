package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** etcd's Watch service: one {@link WatchStream} per client stream. */
public final class WatchService extends WatchGrpc.WatchImplBase {
    private final WatchOperations server;

    public WatchService(WatchOperations server) {
        this.server = server;
    }

    @Override
    public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> out) {
        return new WatchStream(server, (ServerCallStreamObserver<WatchResponse>) out);
    }
}
