package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** etcd's Watch service: one {@link WatchStream} per client stream. */
public final class WatchService extends WatchGrpc.WatchImplBase {
    private final WatchOperations server;
    private final AuthOperations auth;

    public WatchService(WatchOperations server, AuthOperations auth) {
        this.server = server;
        this.auth = auth;
    }

    @Override
    public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> out) {
        return new WatchStream(server, auth, (ServerCallStreamObserver<WatchResponse>) out);
    }
}
