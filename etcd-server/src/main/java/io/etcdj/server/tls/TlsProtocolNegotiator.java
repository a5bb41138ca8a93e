package io.etcdj.server.tls;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.InternalProtocolNegotiators;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;

/**
 * TLS for a gRPC-only server (the peer port) through {@link TlsHandshake}, so that a peer
 * refused at the handshake is logged as etcd logs it, as on the client port.
 */
public final class TlsProtocolNegotiator implements InternalProtocolNegotiator.ProtocolNegotiator {
    private static final AsciiString HTTPS = AsciiString.of("https");

    private final SslContext context;
    private final boolean verifyClientSan;
    private final Log log;

    public TlsProtocolNegotiator(SslContext context, LogSink logs) {
        this(context, false, logs);
    }

    /**
     * {@code verifyClientSan}: a peer's client certificate must name the address it connects from
     * (etcd's peer listener check; off with --peer-skip-client-san-verification).
     */
    public TlsProtocolNegotiator(SslContext context, boolean verifyClientSan, LogSink logs) {
        this.log = logs.logger("embed/config_logging");
        this.context = context;
        this.verifyClientSan = verifyClientSan;
    }

    @Override
    public AsciiString scheme() {
        return HTTPS;
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        return new TlsHandshake(context, event -> InternalProtocolNegotiators.grpcNegotiationHandler(grpcHandler),
                verifyClientSan ? PeerSanCheck::check : null, log);
    }

    @Override
    public void close() {
        // nothing held beyond the context, which the member owns
    }
}
