package io.etcdj.server.tls;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.InternalProtocolNegotiator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;
import java.util.function.Function;

/**
 * TLS for a gRPC server without HTTP/1.1 (the peer port) through {@link TlsHandshake}, so that a peer
 * refused at the handshake is logged as etcd logs it, as on the client port.
 */
public final class TlsProtocolNegotiator implements InternalProtocolNegotiator.ProtocolNegotiator {
    private static final AsciiString HTTPS = AsciiString.of("https");

    private final SslContext context;
    private final boolean verifyClientSan;
    private final Log log;
    private final Function<GrpcHttp2ConnectionHandler, ChannelHandler> afterTls;

    /**
     * {@code verifyClientSan}: a peer's client certificate must name the address it connects from
     * (etcd's peer listener check; off with --peer-skip-client-san-verification). {@code afterTls}:
     * the handler that takes the connection once the handshake is done, given grpc-java's (on the
     * peer port, the one that tells Raft streams from gRPC).
     */
    public TlsProtocolNegotiator(SslContext context, boolean verifyClientSan, LogSink logs,
                                 Function<GrpcHttp2ConnectionHandler, ChannelHandler> afterTls) {
        this.log = logs.logger("embed/config_logging");
        this.context = context;
        this.verifyClientSan = verifyClientSan;
        this.afterTls = afterTls;
    }

    @Override
    public AsciiString scheme() {
        return HTTPS;
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        return new TlsHandshake(context, event -> afterTls.apply(grpcHandler),
                verifyClientSan ? PeerSanCheck::check : null, log);
    }

    @Override
    public void close() {
        // nothing held beyond the context, which the member owns
    }
}
