package io.etcdj.server.gateway;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.tls.TlsHandshake;
import io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.ProtocolNegotiationEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Serves gRPC and HTTP/1.1 on the same port, as etcd does with cmux: a connection that opens with
 * the HTTP/2 preface goes to grpc-java; anything else gets the HTTP/1.1 handlers (gateway,
 * /health, /version, /metrics). Plugged into grpc-java as its protocol negotiator. With an
 * {@code SslContext} (https client URLs) the TLS handshake comes first ({@link TlsHandshake})
 * and the same detection then runs on the decrypted bytes.
 */
public final class ProtocolSniffer implements InternalProtocolNegotiator.ProtocolNegotiator {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final InternalProtocolNegotiator.ProtocolNegotiator grpc = InternalProtocolNegotiators.serverPlaintext();
    private final Supplier<ChannelHandler> httpHandler;
    private final int maxContentBytes;
    private final SslContext tls;
    private final AccessControl access;
    /** Every connection accepted, so that closing the member can drop them at once; null: not tracked. */
    private final ChannelGroup connections;
    private final Log handshakeLog;

    /**
     * TLS first when {@code tls} is not null (a refused handshake reported on {@code logs}), then
     * detection on the decrypted bytes; plaintext (detection on the raw bytes) when it is null.
     */
    public ProtocolSniffer(Supplier<ChannelHandler> httpHandler, int maxContentBytes, SslContext tls,
            LogSink logs) {
        this(httpHandler, maxContentBytes, tls, null, null, logs.logger("embed/config_logging"));
    }

    private ProtocolSniffer(Supplier<ChannelHandler> httpHandler, int maxContentBytes, SslContext tls, AccessControl access,
            ChannelGroup connections, Log handshakeLog) {
        this.handshakeLog = handshakeLog;
        this.httpHandler = httpHandler;
        this.maxContentBytes = maxContentBytes;
        this.tls = tls;
        this.access = access;
        this.connections = connections;
    }


    /** The same, with etcd's host whitelist and CORS headers in front of the HTTP handlers. */
    public ProtocolSniffer withAccessControl(AccessControl access) {
        return new ProtocolSniffer(httpHandler, maxContentBytes, tls, access, connections, handshakeLog);
    }

    /**
     * The same, adding every connection it accepts to {@code group} (which forgets it when it
     * closes): a member that stops closes its client connections as etcd's gRPC server does,
     * instead of grpc-java's shutdownNow, which resets each open stream with CANCEL. A client sees
     * its watch or keep-alive stream end with CANCELLED then, which jetcd takes as final and
     * never resumes; a closed connection is UNAVAILABLE, which it retries on another member.
     */
    public ProtocolSniffer trackingConnections(ChannelGroup group) {
        return new ProtocolSniffer(httpHandler, maxContentBytes, tls, access, group, handshakeLog);
    }

    @Override
    public AsciiString scheme() {
        return tls == null ? grpc.scheme() : AsciiString.of("https");
    }

    @Override
    public ChannelHandler newHandler(GrpcHttp2ConnectionHandler grpcHandler) {
        ChannelHandler first;
        if (tls == null) {
            first = new Sniff(() -> grpc.newHandler(grpcHandler));
        } else {
            // After the handshake grpc-java's negotiation is complete (the event carries the TLS
            // session), so gRPC connections go straight to its negotiation-completing handler.
            first = new TlsHandshake(tls,
                    event -> new Sniff(() -> InternalProtocolNegotiators.grpcNegotiationHandler(grpcHandler)), handshakeLog);
        }
        return connections == null ? first : new Tracked(connections, first);
    }

    /**
     * For a listener that serves gRPC with a handler of its own instead of grpc-java's server
     * ({@code listen.GrpcHttp2Connection}): the same TLS handshake and detection, HTTP/2 to
     * {@code grpc}. With TLS, the handshake's negotiation event (addresses and TLS session) reaches
     * that handler before the first bytes do.
     */
    public ChannelHandler newHandlerFor(Supplier<ChannelHandler> grpc) {
        ChannelHandler first = tls == null ? new Sniff(grpc) : new TlsHandshake(tls, event -> new Sniff(grpc), handshakeLog);
        return connections == null ? first : new Tracked(connections, first);
    }

    /** Adds the connection to the group, then steps aside for {@code first}. */
    private static final class Tracked extends ChannelHandlerAdapter {
        private final ChannelGroup group;
        private final ChannelHandler first;

        Tracked(ChannelGroup group, ChannelHandler first) {
            this.group = group;
            this.first = first;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            group.add(ctx.channel());
            ctx.pipeline().replace(this, null, first);
        }
    }

    @Override
    public void close() {
        grpc.close();
    }

    private final class Sniff extends ChannelInboundHandlerAdapter {
        /** What takes over for gRPC: it finishes grpc-java's negotiation when it gets the event. */
        private final Supplier<ChannelHandler> grpcNext;
        private ByteBuf buffered = Unpooled.EMPTY_BUFFER;
        /** grpc-java starts its negotiation with this event; held until we know the protocol. */
        private Object negotiationEvent;

        Sniff(Supplier<ChannelHandler> grpcNext) {
            this.grpcNext = grpcNext;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ProtocolNegotiationEvent) {
                negotiationEvent = evt;
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf in)) {
                ctx.fireChannelRead(msg);
                return;
            }
            buffered = buffered == Unpooled.EMPTY_BUFFER ? in : Unpooled.wrappedBuffer(buffered, in);
            int n = Math.min(buffered.readableBytes(), PREFACE.length);
            boolean prefixMatches = ByteBufUtil.equals(buffered, buffered.readerIndex(),
                    Unpooled.wrappedBuffer(PREFACE), 0, n);
            if (prefixMatches && n < PREFACE.length) {
                return; // need more bytes to decide
            }
            ByteBuf data = buffered;
            buffered = Unpooled.EMPTY_BUFFER;
            ChannelPipeline p = ctx.pipeline();
            if (prefixMatches) {
                p.replace(this, null, grpcNext.get());
                if (negotiationEvent != null) {
                    ctx.fireUserEventTriggered(negotiationEvent);
                }
            } else {
                removeGrpcWriteBuffer(p);
                p.replace(this, null, new HttpServerCodec());
                p.addLast(new HttpObjectAggregator(maxContentBytes));
                if (access != null) {
                    p.addLast(access);
                }
                p.addLast(httpHandler.get());
            }
            // From this handler's (replaced) context, not the pipeline's head: with TLS the head
            // is the SslHandler, which must not see the already decrypted bytes again.
            ctx.fireChannelRead(data);
        }

        /** grpc-java holds writes until its negotiation finishes; an HTTP/1 connection never negotiates. */
        private void removeGrpcWriteBuffer(ChannelPipeline p) {
            List<String> names = new ArrayList<>();
            for (Map.Entry<String, ChannelHandler> e : p) {
                if (e.getValue().getClass().getSimpleName().equals("WriteBufferingAndExceptionHandler")) {
                    names.add(e.getKey());
                }
            }
            names.forEach(p::remove);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (buffered != Unpooled.EMPTY_BUFFER) {
                buffered.release();
                buffered = Unpooled.EMPTY_BUFFER;
            }
        }
    }
}
