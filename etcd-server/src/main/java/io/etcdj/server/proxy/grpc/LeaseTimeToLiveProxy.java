package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.grpc.Channel;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

/**
 * The one Lease method whose answer carries keys: with --namespace the attached keys lose the
 * prefix, as etcd's namespaced lease client does. Only this method is registered for the Lease
 * service; its other methods fall through to the raw forwarder.
 */
final class LeaseTimeToLiveProxy {
    private final LeaseGrpc.LeaseStub upstream;
    private final Namespace ns;

    LeaseTimeToLiveProxy(Channel channel, Namespace ns) {
        this.upstream = LeaseGrpc.newStub(channel);
        this.ns = ns;
    }

    ServerServiceDefinition bind() {
        return ServerServiceDefinition.builder(LeaseGrpc.SERVICE_NAME)
                .addMethod(LeaseGrpc.getLeaseTimeToLiveMethod(), ServerCalls.asyncUnaryCall(this::timeToLive))
                .build();
    }

    private void timeToLive(LeaseTimeToLiveRequest r, StreamObserver<LeaseTimeToLiveResponse> out) {
        upstream.leaseTimeToLive(r, new Relay<>(out, resp -> {
            LeaseTimeToLiveResponse.Builder b = resp.toBuilder().clearKeys();
            for (ByteString k : resp.getKeysList()) {
                b.addKeys(ns.strip(k));
            }
            return b.build();
        }, resp -> { }));
    }
}
