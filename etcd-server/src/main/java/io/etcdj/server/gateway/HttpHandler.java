package io.etcdj.server.gateway;

import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * HTTP/1.1 on the client port: the JSON gateway (JSON in and out, bytes base64, int64 as strings,
 * field names as in the protos), and the plain endpoints /health, /version and /metrics. Gateway
 * calls go to the gRPC services over an in-process channel, so both paths share every check.
 */
@ChannelHandler.Sharable
public final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().preservingProtoFieldNames()
            .omittingInsignificantWhitespace();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    private final GatewayRoutes routes;
    private final Channel channel;
    private final Endpoints endpoints;
    private final int maxMessage;
    private final boolean debug;
    private final long maxStreams;
    /** This listener's gateway calls against --max-concurrent-streams, as etcd's gateway connection counts them. */
    private final StreamSlots slots;

    /** The non-gateway endpoints, answered by the server. */
    public interface Endpoints {
        /** The answer to /health, when the member knows it (a linearizable check may take a moment). */
        CompletableFuture<Health> health(boolean serializable, List<String> exclude);

        String version();

        String metrics();

        /** /livez's checks. */
        HealthChecks livez();

        /** /readyz's checks. */
        HealthChecks readyz();
    }

    /** The outcome of a health check: healthy when there is no reason against it. */
    public record Health(String reason) {
        public static Health of(String reason) {
            return new Health(reason);
        }

        boolean ok() {
            return reason.isEmpty();
        }

        String json() {
            return "{\"health\":\"" + ok() + "\",\"reason\":\"" + reason + "\"}";
        }
    }

    /**
     * {@code routes} null serves the endpoints alone (the --listen-metrics-urls listeners, or
     * --enable-grpc-gateway=false).
     */
    public HttpHandler(GatewayRoutes routes, Channel channel, Endpoints endpoints) {
        this(routes, channel, endpoints, Integer.MAX_VALUE);
    }

    /** {@code maxMessage}: the largest request, as gRPC counts it (its protobuf size), the services accept. */
    public HttpHandler(GatewayRoutes routes, Channel channel, Endpoints endpoints, int maxMessage) {
        this(routes, channel, endpoints, maxMessage, false);
    }

    /** {@code debug}: --enable-pprof, the JVM's diagnostics under /debug/jvm/ ({@link JvmDebug}). */
    public HttpHandler(GatewayRoutes routes, Channel channel, Endpoints endpoints, int maxMessage, boolean debug) {
        this(routes, channel, endpoints, maxMessage, debug, Long.MAX_VALUE);
    }

    /**
     * {@code maxStreams}: --max-concurrent-streams; gateway calls beyond it wait for one to end, as
     * etcd's gateway, a gRPC client of the member, waits for a free HTTP/2 stream.
     */
    public HttpHandler(GatewayRoutes routes, Channel channel, Endpoints endpoints, int maxMessage, boolean debug,
            long maxStreams) {
        this.maxStreams = maxStreams;
        this.slots = new StreamSlots(maxStreams);
        this.debug = debug;
        this.maxMessage = maxMessage;
        this.routes = routes;
        this.channel = channel;
        this.endpoints = endpoints;
    }

    /**
     * The same handler with a stream count of its own: etcd's gateway opens one gRPC connection
     * per client listener, and the stream limit applies to each connection.
     */
    public HttpHandler forAnotherListener() {
        return new HttpHandler(routes, channel, endpoints, maxMessage, debug, maxStreams);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        QueryStringDecoder q = new QueryStringDecoder(req.uri());
        String path = q.path();
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        switch (path) {
            case "/health" -> endpoints.health("true".equals(first(q, "serializable")),
                            q.parameters().getOrDefault("exclude", List.of()))
                    .thenAccept(h -> ctx.executor().execute(() -> send(ctx,
                            h.ok() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                            "application/json", h.json(), keepAlive)));
            case "/version" -> send(ctx, HttpResponseStatus.OK, "application/json", endpoints.version(), keepAlive);
            case "/metrics" -> send(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
                    endpoints.metrics(), keepAlive);
            case "/livez", "/readyz" -> health(ctx, req, q, path, null, keepAlive);
            default -> {
                String check = checkPath(path);
                if (check != null) {
                    health(ctx, req, q, path.substring(0, path.indexOf('/', 1)), check, keepAlive);
                } else if (debug && path.startsWith("/debug/jvm/")) {
                    debug(ctx, q, path, keepAlive);
                } else {
                    gateway(ctx, req, path, keepAlive);
                }
            }
        }
    }

    /** The check named by /livez/CHECK or /readyz/CHECK, if the path is one; else null. */
    private String checkPath(String path) {
        for (String root : new String[] {"/livez/", "/readyz/"}) {
            if (path.startsWith(root)) {
                String check = path.substring(root.length());
                HealthChecks checks = root.equals("/livez/") ? endpoints.livez() : endpoints.readyz();
                return checks.has(check) ? check : null;
            }
        }
        return null;
    }

    /** /livez, /readyz ({@code check} null) or one of their checks, GET only as etcd's handlers. */
    private void health(ChannelHandlerContext ctx, FullHttpRequest req, QueryStringDecoder q, String root, String check,
            boolean keepAlive) {
        if (req.method() != HttpMethod.GET) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.METHOD_NOT_ALLOWED,
                    Unpooled.copiedBuffer("Method Not Allowed\n", StandardCharsets.UTF_8));
            r.headers().set(HttpHeaderNames.ALLOW, "GET");
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            r.headers().set("X-Content-Type-Options", "nosniff");
            r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
            ctx.writeAndFlush(r).addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
            return;
        }
        HealthChecks checks = root.equals("/livez") ? endpoints.livez() : endpoints.readyz();
        boolean verbose = q.parameters().containsKey("verbose");
        (check == null ? checks.runAll(q.parameters().getOrDefault("exclude", List.of()), verbose)
                : checks.runOne(check, verbose))
                .thenAccept(a -> ctx.executor().execute(() -> send(ctx, HttpResponseStatus.valueOf(a.status()),
                        "text/plain; charset=utf-8", a.body(), keepAlive)));
    }

    private static void debug(ChannelHandlerContext ctx, QueryStringDecoder q, String path, boolean keepAlive) {
        switch (path) {
            case JvmDebug.PREFIX -> send(ctx, HttpResponseStatus.OK, "text/plain; charset=utf-8", JvmDebug.INDEX, keepAlive);
            case JvmDebug.PREFIX + "threads" -> send(ctx, HttpResponseStatus.OK, "text/plain; charset=utf-8", JvmDebug.threads(),
                    keepAlive);
            case JvmDebug.PREFIX + "jfr" -> {
                Long seconds = JvmDebug.seconds(first(q, "seconds"));
                if (seconds == null) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, "text/plain; charset=utf-8",
                            "seconds must be a whole number from 1 to 600\n", keepAlive);
                    return;
                }
                JvmDebug.record(Duration.ofSeconds(seconds)).whenComplete((jfr, err) -> ctx.executor().execute(() -> {
                    if (err != null) {
                        send(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
                                "recording failed: " + err.getMessage() + "\n", keepAlive);
                        return;
                    }
                    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(jfr));
                    r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream");
                    r.headers().set(HttpHeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"etcd.jfr\"");
                    r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, jfr.length);
                    ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
                }));
            }
            default -> send(ctx, HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8", "404 page not found\n", keepAlive);
        }
    }

    private static String first(QueryStringDecoder q, String name) {
        var v = q.parameters().get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private void gateway(ChannelHandlerContext ctx, FullHttpRequest req, String path, boolean keepAlive) {
        GatewayRoutes.Route route = routes == null ? null : routes.find(path);
        if (route == null) {
            send(ctx, HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8", "404 page not found\n", keepAlive);
            return;
        }
        if (req.method() != HttpMethod.POST) {
            error(ctx, Status.Code.UNIMPLEMENTED, "Method Not Allowed", HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
            return;
        }
        Message request;
        try {
            DynamicMessage.Builder b = DynamicMessage.newBuilder(route.proto().getInputType());
            String body = req.content().toString(StandardCharsets.UTF_8);
            if (!body.isBlank()) {
                String invalid = JsonChecks.check(body, route.proto().getInputType());
                if (invalid != null) {
                    error(ctx, Status.Code.INVALID_ARGUMENT, invalid, HttpResponseStatus.BAD_REQUEST, keepAlive);
                    return;
                }
                PARSER.merge(body, b);
            }
            request = b.build();
        } catch (InvalidProtocolBufferException e) {
            error(ctx, Status.Code.INVALID_ARGUMENT, withoutJavaNames(e.getMessage()), HttpResponseStatus.BAD_REQUEST, keepAlive);
            return;
        }
        if (request.getSerializedSize() > maxMessage) {
            error(ctx, Status.Code.RESOURCE_EXHAUSTED, "grpc: received message larger than max ("
                    + request.getSerializedSize() + " vs. " + maxMessage + ")", HttpResponseStatus.TOO_MANY_REQUESTS, keepAlive);
            return;
        }
        Metadata headers = new Metadata();
        String token = req.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (token != null) {
            headers.put(Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER), token);
        }
        boolean streaming = route.method().getType() != MethodDescriptor.MethodType.UNARY;
        Object requestMsg = parseAs(route.method(), request);
        AtomicReference<ClientCall<Object, Object>> started = new AtomicReference<>();
        Runnable start = () -> {
            ClientCall<Object, Object> call = channel.newCall(route.method(), CallOptions.DEFAULT);
            call.start(new Relay(ctx, route, streaming, keepAlive, slots::release), headers);
            started.set(call);
            call.request(streaming ? Integer.MAX_VALUE : 2);
            call.sendMessage(requestMsg);
            // The whole body has arrived: the client's side of the stream is done, as grpc-gateway
            // closes it at the end of the body. A keep-alive answers and ends; a watch keeps streaming.
            call.halfClose();
            // the connection may have closed while this call waited or started: nobody cancelled it then
            if (!ctx.channel().isActive()) {
                call.cancel("client closed the connection", null);
            }
        };
        ctx.channel().closeFuture().addListener(f -> {
            if (!slots.abandon(start)) {
                ClientCall<Object, Object> call = started.get();
                if (call != null) {
                    call.cancel("client closed the connection", null);
                }
            }
        });
        slots.acquire(start);
    }

    private static Object parseAs(MethodDescriptor<Object, Object> md, Message dynamic) {
        return md.parseRequest(new ByteArrayInputStream(dynamic.toByteArray()));
    }

    /** Copies the call's responses to the HTTP response: one JSON body, or a chunked stream of {"result":...}. */
    private final class Relay extends ClientCall.Listener<Object> {
        private final ChannelHandlerContext ctx;
        private final GatewayRoutes.Route route;
        private final boolean streaming;
        private final boolean keepAlive;
        /** Frees the call's stream slot, once, when it closes. */
        private final Runnable onEnd;
        private boolean headersSent;
        private String unaryBody;

        Relay(ChannelHandlerContext ctx, GatewayRoutes.Route route, boolean streaming, boolean keepAlive, Runnable onEnd) {
            this.onEnd = onEnd;
            this.ctx = ctx;
            this.route = route;
            this.streaming = streaming;
            this.keepAlive = keepAlive;
        }

        @Override
        public void onMessage(Object message) {
            String json = toJson(message);
            if (!streaming) {
                unaryBody = json;
                return;
            }
            ctx.executor().execute(() -> {
                startStream();
                ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer("{\"result\":" + json + "}\n", StandardCharsets.UTF_8)));
            });
        }

        private void startStream() {
            if (!headersSent) {
                headersSent = true;
                HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                r.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
                ctx.write(r);
            }
        }

        private String toJson(Object message) {
            try {
                Message m = DynamicMessage.parseFrom(route.proto().getOutputType(),
                        route.method().streamResponse(message).readAllBytes());
                return PRINTER.print(m);
            } catch (IOException e) {
                return "{}";
            }
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
            onEnd.run();
            ctx.executor().execute(() -> {
                if (streaming) {
                    if (!status.isOk() && !headersSent) {
                        error(ctx, status.getCode(), status.getDescription(), httpStatus(status.getCode()), keepAlive);
                        return;
                    }
                    startStream();
                    if (!status.isOk()) {
                        ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(errorJson(status.getCode(),
                                status.getDescription()) + "\n", StandardCharsets.UTF_8)));
                    }
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                    return;
                }
                if (status.isOk() && unaryBody != null) {
                    send(ctx, HttpResponseStatus.OK, "application/json", unaryBody, keepAlive);
                } else {
                    error(ctx, status.getCode(), status.getDescription(), httpStatus(status.getCode()), keepAlive);
                }
            });
        }
    }

    /** A parser message without the exception class names Java puts in front of it. */
    static String withoutJavaNames(String message) {
        String m = message == null ? "" : message;
        return m.replaceAll("(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ", "");
    }

    static String errorJson(Status.Code code, String message) {
        StringBuilder sb = new StringBuilder("{\"error\":");
        String m = message == null ? "" : message;
        quote(sb, m);
        // etcd's member order (grpc-gateway v1's errorBody): error, message, code
        sb.append(",\"message\":");
        quote(sb, m);
        return sb.append(",\"code\":").append(code.value()).append('}').toString();
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
    }

    private void error(ChannelHandlerContext ctx, Status.Code code, String message, HttpResponseStatus http, boolean keepAlive) {
        send(ctx, http, "application/json", errorJson(code, message), keepAlive);
    }

    /** HTTP statuses for gRPC codes, as grpc-gateway maps them. */
    static HttpResponseStatus httpStatus(Status.Code code) {
        return switch (code) {
            case OK -> HttpResponseStatus.OK;
            case CANCELLED -> HttpResponseStatus.valueOf(499);
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> HttpResponseStatus.BAD_REQUEST;
            case DEADLINE_EXCEEDED -> HttpResponseStatus.GATEWAY_TIMEOUT;
            case NOT_FOUND -> HttpResponseStatus.NOT_FOUND;
            case ALREADY_EXISTS, ABORTED -> HttpResponseStatus.CONFLICT;
            case PERMISSION_DENIED -> HttpResponseStatus.FORBIDDEN;
            case UNAUTHENTICATED -> HttpResponseStatus.UNAUTHORIZED;
            case RESOURCE_EXHAUSTED -> HttpResponseStatus.TOO_MANY_REQUESTS;
            case UNIMPLEMENTED -> HttpResponseStatus.NOT_IMPLEMENTED;
            case UNAVAILABLE -> HttpResponseStatus.SERVICE_UNAVAILABLE;
            default -> HttpResponseStatus.INTERNAL_SERVER_ERROR;
        };
    }

    static void send(ChannelHandlerContext ctx, HttpResponseStatus status, String type, String body, boolean keepAlive) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        if (keepAlive) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(r);
        } else {
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
