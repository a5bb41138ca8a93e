package io.etcdj.server.proxy.grpc;

import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;

/** The Watch service of the proxy: one {@link ClientWatchStream} per client stream, watchers shared via {@link Broadcasts}. */
final class WatchProxy extends WatchGrpc.WatchImplBase {
    private final Broadcasts broadcasts;

    WatchProxy(Channel channel, Namespace ns, ProxyMetrics metrics) {
        this.broadcasts = new Broadcasts(WatchGrpc.newStub(channel), ns, metrics);
    }

    @Override
    public StreamObserver<WatchRequest> watch(StreamObserver<WatchResponse> out) {
        return new ClientWatchStream(broadcasts, out);
    }

    void close() {
        broadcasts.closeAll();
    }
}
