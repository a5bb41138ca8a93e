package io.etcdj.server.transport;

import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.InternalProtocolNegotiator;
import io.netty.channel.ChannelHandler;
import io.netty.util.AsciiString;
import java.util.function.Function;

/** The negotiation of a plaintext peer port: no handshake, straight to the handler that tells Raft streams from gRPC. */
final class PlaintextPeerPort implements InternalProtocolNegotiator.ProtocolNegotiator {
    private static final AsciiString HTTP = AsciiString.of("http");
    private final Function<GrpcHttp2ConnectionHandler, ChannelHandler> sniffer;

    PlaintextPeerPort(Function<GrpcHttp2ConnectionHandler, ChannelHandler> sniffer) {
        this.sniffer = sniffer;
    }

    @Override
    public AsciiString scheme() {
        return HTTP;
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        return sniffer.apply(grpcHandler);
    }

    @Override
    public void close() {
        // holds nothing
    }
}
