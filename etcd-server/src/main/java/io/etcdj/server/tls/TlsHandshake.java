package io.etcdj.server.tls;

import io.etcdj.server.log.Log;
import io.grpc.Attributes;
import io.grpc.Grpc;
import io.grpc.InternalChannelz;
import io.grpc.netty.InternalProtocolNegotiationEvent;
import io.grpc.netty.ProtocolNegotiationEvent;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.net.SocketAddress;
import java.util.function.BiFunction;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * The server side of the TLS handshake on a grpc-java connection: puts an {@code SslHandler} in
 * front of itself, and once the handshake succeeds replaces itself with the handler {@code next}
 * makes and fires grpc-java's negotiation event, with the TLS session attached, at it. A client that
 * fails the handshake (no certificate, untrusted certificate, no common protocol) gets the TLS
 * alert, is logged as etcd logs it ("rejected connection") and disconnected; nothing else is
 * affected.
 */
public final class TlsHandshake extends ChannelInboundHandlerAdapter {
    private final Log log;

    private final SslContext context;
    private final Function<ProtocolNegotiationEvent, ChannelHandler> next;
    private final BiFunction<SSLSession, SocketAddress, String> check;
    private SslHandler ssl;
    private ProtocolNegotiationEvent negotiationEvent = InternalProtocolNegotiationEvent.getDefault();
    private boolean rejected;

    /** {@code log}: where a rejected connection is reported (the member's "embed/config_logging" logger). */
    public TlsHandshake(SslContext context, Function<ProtocolNegotiationEvent, ChannelHandler> next, Log log) {
        this(context, next, null, log);
    }

    /** {@code check}: run on the session and remote address once the handshake succeeds; an error text refuses the connection. */
    TlsHandshake(SslContext context, Function<ProtocolNegotiationEvent, ChannelHandler> next,
                 BiFunction<SSLSession, SocketAddress, String> check, Log log) {
        this.log = log;
        this.context = context;
        this.next = next;
        this.check = check;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ssl = context.newHandler(ctx.alloc());
        ctx.pipeline().addBefore(ctx.name(), null, ssl);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ProtocolNegotiationEvent pne) {
            negotiationEvent = pne; // grpc-java's start signal: held until the handshake is done
            return;
        }
        if (evt instanceof SslHandshakeCompletionEvent done) {
            String refused = done.isSuccess() && check != null
                    ? check.apply(ssl.engine().getSession(), ctx.channel().remoteAddress()) : null;
            if (refused != null) {
                reject(ctx, new SSLException(refused));
            } else if (done.isSuccess()) {
                ProtocolNegotiationEvent event = withTlsSession(ctx);
                ctx.pipeline().replace(this, null, next.apply(event));
                // from the replaced context: the next handler is the first to see it
                ctx.fireUserEventTriggered(event);
            } else {
                reject(ctx, done.cause());
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof DecoderException && cause.getCause() instanceof SSLException
                || cause instanceof SSLException) {
            reject(ctx, cause instanceof SSLException ? cause : cause.getCause());
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    private void reject(ChannelHandlerContext ctx, Throwable cause) {
        if (!rejected) {
            rejected = true;
            log.warn("rejected connection", "remote-addr", String.valueOf(ctx.channel().remoteAddress()).replaceFirst("^/", ""),
                    "error", HandshakeFailures.describe(cause));
        }
        ctx.close();
    }

    private ProtocolNegotiationEvent withTlsSession(ChannelHandlerContext ctx) {
        SSLSession session = ssl.engine().getSession();
        Attributes attrs = InternalProtocolNegotiationEvent.getAttributes(negotiationEvent).toBuilder()
                .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress())
                .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                .set(Grpc.TRANSPORT_ATTR_SSL_SESSION, session)
                .build();
        ProtocolNegotiationEvent event = InternalProtocolNegotiationEvent.withAttributes(negotiationEvent, attrs);
        return InternalProtocolNegotiationEvent.withSecurity(event,
                new InternalChannelz.Security(new InternalChannelz.Tls(session)));
    }
}
