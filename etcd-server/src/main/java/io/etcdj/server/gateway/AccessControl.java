package io.etcdj.server.gateway;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * etcd's access controller in front of the client port's HTTP handlers: on a plain-text
 * connection a request whose Host is not in --host-whitelist is answered 421 with etcd's text
 * (the DNS rebinding guard); every answer carries CORS headers for the origins --cors allows
 * ({@code *}, the default, allows every origin and answers with {@code *}); an OPTIONS request
 * is answered 200 with those headers alone.
 */
@ChannelHandler.Sharable
public final class AccessControl extends ChannelDuplexHandler {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private static final AttributeKey<String> ORIGIN = AttributeKey.valueOf("etcdj.cors-origin");

    private final Set<String> cors;
    private final Set<String> hostWhitelist;

    /** Empty lists, or lists holding {@code *}, allow everything, as etcd. */
    public AccessControl(List<String> cors, List<String> hostWhitelist, LogSink logs) {
        this.log = logs.logger("embed/serve");
        this.cors = Set.copyOf(cors);
        this.hostWhitelist = Set.copyOf(hostWhitelist);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest req)) {
            ctx.fireChannelRead(msg);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (ctx.pipeline().get(SslHandler.class) == null) {
            String host = hostname(req.headers().get(HttpHeaderNames.HOST, ""));
            if (!hostAllowed(host)) {
                req.release();
                log.warn("rejecting HTTP request to prevent DNS rebinding attacks", "host", host);
                respond(ctx, HttpResponseStatus.valueOf(421), misdirected(host), keepAlive, true, null);
                return;
            }
        }
        String origin = allowedOrigin(req.headers().get(HttpHeaderNames.ORIGIN));
        ctx.channel().attr(ORIGIN).set(origin);
        if (req.method().equals(HttpMethod.OPTIONS)) {
            req.release();
            // written from here, so it does not pass this handler's write: the headers go on now
            respond(ctx, HttpResponseStatus.OK, "", keepAlive, false, origin);
            return;
        }
        ctx.fireChannelRead(req);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse r) {
            addCors(r, ctx.channel().attr(ORIGIN).get());
        }
        ctx.write(msg, promise);
    }

    private static void addCors(HttpResponse r, String origin) {
        if (origin != null) {
            r.headers().add("Access-Control-Allow-Methods", "POST, GET, OPTIONS, PUT, DELETE");
            r.headers().add("Access-Control-Allow-Origin", origin);
            r.headers().add("Access-Control-Allow-Headers", "accept, content-type, authorization");
        }
    }

    boolean hostAllowed(String host) {
        return hostWhitelist.isEmpty() || hostWhitelist.contains("*") || hostWhitelist.contains(host);
    }

    /** The value of Access-Control-Allow-Origin for a request from {@code origin}, or null for none. */
    String allowedOrigin(String origin) {
        if (cors.isEmpty() || cors.contains("*")) {
            return "*";
        }
        return origin != null && cors.contains(origin) ? origin : null;
    }

    /** Go's net.SplitHostPort on the Host header, falling back to the whole value. */
    static String hostname(String hostHeader) {
        if (hostHeader.startsWith("[")) {
            int end = hostHeader.indexOf(']');
            if (end > 0 && hostHeader.startsWith(":", end + 1)) {
                return hostHeader.substring(1, end);
            }
            return hostHeader;
        }
        int colon = hostHeader.indexOf(':');
        return colon >= 0 && colon == hostHeader.lastIndexOf(':') ? hostHeader.substring(0, colon) : hostHeader;
    }

    static String misdirected(String host) {
        return "\netcd received your request, but the Host header was unrecognized.\n\n"
                + "To fix this, choose one of the following options:\n"
                + "- Enable TLS, then any HTTPS request will be allowed.\n"
                + "- Add the hostname you want to use to the whitelist in settings.\n"
                + "  - e.g. etcd --host-whitelist \"" + host + "\"\n\n"
                + "This requirement has been added to help prevent \"DNS Rebinding\" attacks (CVE-2018-5702).\n\n";
    }

    private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String body, boolean keepAlive,
            boolean text, String origin) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        addCors(r, origin);
        if (text) {
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            r.headers().set("X-Content-Type-Options", "nosniff");
        }
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        if (keepAlive) {
            ctx.writeAndFlush(r);
        } else {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
