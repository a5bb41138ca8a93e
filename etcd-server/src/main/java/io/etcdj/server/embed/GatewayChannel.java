package io.etcdj.server.embed;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON gateway's way to the member's gRPC services: an in-process server and channel, made at
 * the gateway's first call. Most members never see a gateway call, and building both cost ~8 ms of
 * every start (grpc-java's in-process transport and channel machinery, initialised interpreted).
 */
final class GatewayChannel extends Channel implements AutoCloseable {
    private final String name;
    private final int maxInboundBytes;
    private final HandlerRegistry services;
    private Server server;
    private ManagedChannel channel;
    private boolean closed;

    /** A channel to {@code services}, which take requests of at most {@code maxInboundBytes}; {@code name} must be unique in the JVM. */
    GatewayChannel(String name, int maxInboundBytes, HandlerRegistry services) {
        this.name = name;
        this.maxInboundBytes = maxInboundBytes;
        this.services = services;
    }

    private synchronized Channel started() {
        if (channel == null && closed) {
            // as a channel shut down answers: the call fails with UNAVAILABLE
            channel = InProcessChannelBuilder.forName(name).build();
            channel.shutdownNow();
        }
        if (channel == null) {
            try {
                server = InProcessServerBuilder.forName(name).maxInboundMessageSize(maxInboundBytes)
                        .fallbackHandlerRegistry(services).build().start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            channel = InProcessChannelBuilder.forName(name).maxInboundMessageSize(Integer.MAX_VALUE).build();
        }
        return channel;
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        return started().newCall(method, options);
    }

    @Override
    public String authority() {
        return name;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (channel != null) {
            channel.shutdownNow();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }
}
