package io.etcdj.server.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GET requests to a peer's HTTP endpoints ({@link PeerHttp}), as etcd asks its peers: the prober's
 * {@code /raft/probing} and the downgrade monitor's {@code /version}. Each request has a connection
 * of its own, dialed as the Raft streams are ({@link RaftStreamDialer#connect}: the transport's
 * loops, TLS and source address), and closed with the answer. A member of a cluster loads no gRPC
 * client for these, only Netty's HTTP codec, which its client port already has.
 */
final class PeerHttpClient {
    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final Pattern SERVER_VERSION = Pattern.compile("\"etcdserver\":\"([^\"]*)\"");

    private final RaftStreamDialer dialer;

    PeerHttpClient(RaftStreamDialer dialer) {
        this.dialer = dialer;
    }

    /**
     * An answer with status 200: its body, and the time from sending the request to the whole
     * answer (the connection's dial and TLS handshake not included, as etcd's prober measures a
     * request on a connection already open).
     */
    record Answer(String body, long roundTripNanos) {
    }

    /**
     * GETs {@code path} from the peer at {@code peerUrl}; dials on the caller's thread (blocking for
     * at most the dial timeout), then completes when the answer arrives, exceptionally with an
     * IOException for another status, a broken connection or no answer within {@code timeoutMillis}.
     */
    CompletableFuture<Answer> get(String peerUrl, String path, long timeoutMillis) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        long[] sent = new long[1];
        Channel ch;
        try {
            ch = dialer.connect(peerUrl, p -> p.addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_ANSWER_BYTES),
                    new SimpleChannelInboundHandler<FullHttpResponse>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
                            long took = System.nanoTime() - sent[0];
                            String body = r.content().toString(StandardCharsets.UTF_8);
                            if (r.status().code() == 200) {
                                answer.complete(new Answer(body, took));
                            } else {
                                answer.completeExceptionally(new IOException(peerUrl + path + ": " + r.status() + " " + body.strip()));
                            }
                            ctx.close();
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            answer.completeExceptionally(new IOException(peerUrl + path + ": the connection closed without an answer"));
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            answer.completeExceptionally(cause);
                            ctx.close();
                        }
                    }));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        URI u = URI.create(peerUrl);
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        req.headers().set(HttpHeaderNames.HOST, u.getPort() < 0 ? u.getHost() : u.getHost() + ":" + u.getPort());
        req.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ch.eventLoop().execute(() -> {
            sent[0] = System.nanoTime();
            ch.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess()) {
                    answer.completeExceptionally(f.cause());
                }
            });
        });
        return answer.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((a, err) -> ch.close());
    }

    /** The server version a peer's {@code /version} names (etcd's downgrade monitor asks for it); fails unchecked. */
    String serverVersion(String peerUrl, long timeoutMillis) {
        String body;
        try {
            body = get(peerUrl, "/version", timeoutMillis).join().body();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            throw new UncheckedIOException(cause instanceof IOException io ? io : new IOException(peerUrl + "/version: " + cause, cause));
        }
        Matcher m = SERVER_VERSION.matcher(body);
        if (!m.find()) {
            throw new UncheckedIOException(new IOException(peerUrl + "/version: no server version in " + body.strip()));
        }
        return m.group(1);
    }
}
