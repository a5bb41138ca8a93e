package io.etcdj.benchmark;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's connections: {@code conns} channels spread round-robin over the endpoints.
 * Client {@code i} always uses channel {@code i % conns}, as etcd's tool shares its connections.
 */
final class ChannelPool implements AutoCloseable {
    private final List<ManagedChannel> channels = new ArrayList<>();

    ChannelPool(List<String> targets, int conns) {
        for (int i = 0; i < conns; i++) {
            // directExecutor: completion callbacks only record a time and send the next request,
            // so running them on the transport threads avoids a thread hop per request.
            channels.add(NettyChannelBuilder.forTarget(targets.get(i % targets.size()))
                    .usePlaintext()
                    .directExecutor()
                    .maxInboundMessageSize(64 * 1024 * 1024)
                    .build());
        }
    }

    int size() {
        return channels.size();
    }

    ManagedChannel forClient(int client) {
        return channels.get(client % channels.size());
    }

    @Override
    public void close() {
        for (ManagedChannel c : channels) {
            c.shutdownNow();
        }
        for (ManagedChannel c : channels) {
            try {
                c.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
