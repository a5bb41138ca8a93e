package io.etcdj.launcher.it;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Puts and gets through one member with the generated KV stub. */
final class Kv implements AutoCloseable {
    private final ManagedChannel channel;

    Kv(String clientUrl) {
        URI u = URI.create(clientUrl);
        channel = NettyChannelBuilder.forAddress(u.getHost(), u.getPort()).usePlaintext().build();
    }

    Kv(ManagedChannel channel) {
        this.channel = channel;
    }

    void put(String key, String value) {
        stub(5).put(PutRequest.newBuilder().setKey(bytes(key)).setValue(bytes(value)).build());
    }

    /** A linearizable read (the default): needs the member to reach a quorum. */
    Optional<String> get(String key, int timeoutSeconds) {
        RangeResponse r = stub(timeoutSeconds).range(RangeRequest.newBuilder().setKey(bytes(key)).build());
        return r.getKvsCount() == 0 ? Optional.empty() : Optional.of(r.getKvs(0).getValue().toStringUtf8());
    }

    private KVGrpc.KVBlockingStub stub(int seconds) {
        return KVGrpc.newBlockingStub(channel).withDeadlineAfter(seconds, TimeUnit.SECONDS);
    }

    private static ByteString bytes(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
