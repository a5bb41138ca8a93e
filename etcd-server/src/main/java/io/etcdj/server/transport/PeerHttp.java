package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.cli.GoJsonString;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.version.Versions;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP/1.1 endpoints etcd serves on its peer URLs that people and tools read: {@code GET
 * /version} (the client URLs' body), {@code GET /members} (the members as JSON, with the cluster's
 * ID in {@code X-Etcd-Cluster-ID}) and {@code GET /raft/probing} (etcd's prober's answer), with
 * etcd's texts for another method ({@code 405 Method Not Allowed}) and any other path ({@code 404
 * page not found}). etcd's own peer traffic (Raft, lease and promote calls) goes over our streams and
 * gRPC instead (docs/decisions.md), so those paths are not found here.
 */
final class PeerHttp extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final int MAX_REQUEST_BYTES = 64 * 1024;
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private final PeerHandler member;

    private PeerHttp(PeerHandler member) {
        this.member = member;
    }

    /** The handlers of a peer-port connection that turned out to speak HTTP/1, in pipeline order. */
    static List<ChannelHandler> handlers(PeerHandler member) {
        return List.of(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES), new PeerHttp(member));
    }

    /** Whether a connection's first four bytes start an HTTP/1 request: a method's capitals (HTTP/2's preface is "PRI "). */
    static boolean isRequestStart(byte[] first4) {
        for (byte b : first4) {
            if (b != ' ' && (b < 'A' || b > 'Z')) {
                return false;
            }
        }
        return first4[0] != ' ' && !new String(first4, StandardCharsets.US_ASCII).equals("PRI ");
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        String path = new QueryStringDecoder(req.uri()).path();
        switch (path) {
            case "/version" -> {
                if (allowGet(ctx, req, keepAlive)) {
                    send(ctx, HttpResponseStatus.OK, "application/json", Versions.json(member.clusterVersion()), null, keepAlive);
                }
            }
            case "/members" -> {
                if (allowGet(ctx, req, keepAlive)) {
                    MembersResponse ms = member.members();
                    send(ctx, HttpResponseStatus.OK, "application/json", membersJson(ms.getMembersList()),
                            MemberIds.hex(ms.getClusterId()), keepAlive);
                }
            }
            case "/raft/probing" -> send(ctx, HttpResponseStatus.OK, TEXT,
                    "{\"OK\":true,\"Now\":\"" + goTime(OffsetDateTime.now()) + "\"}\n", null, keepAlive);
            default -> send(ctx, HttpResponseStatus.NOT_FOUND, TEXT, "404 page not found\n", null, keepAlive);
        }
    }

    /** etcd's allowMethod: anything but GET gets 405 with {@code Allow: GET}. */
    private static boolean allowGet(ChannelHandlerContext ctx, FullHttpRequest req, boolean keepAlive) {
        if (req.method() == HttpMethod.GET) {
            return true;
        }
        FullHttpResponse r = response(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, "Method Not Allowed\n");
        r.headers().set(HttpHeaderNames.ALLOW, "GET");
        r.headers().set("X-Content-Type-Options", "nosniff");
        write(ctx, r, keepAlive);
        return false;
    }

    /**
     * The members as etcd's membership.Member encodes them (id, peerURLs, isLearner when set, name
     * and clientURLs when not empty), by ID, with Go's json.Encoder's closing newline.
     */
    static String membersJson(List<Member> members) {
        List<Member> byId = new ArrayList<>(members);
        byId.sort((a, b) -> Long.compareUnsigned(a.getID(), b.getID()));
        StringBuilder sb = new StringBuilder("[");
        for (Member m : byId) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append("{\"id\":").append(Long.toUnsignedString(m.getID())).append(",\"peerURLs\":");
            strings(sb, m.getPeerURLsList());
            if (m.getIsLearner()) {
                sb.append(",\"isLearner\":true");
            }
            if (!m.getName().isEmpty()) {
                sb.append(",\"name\":");
                GoJsonString.append(sb, m.getName());
            }
            if (m.getClientURLsCount() > 0) {
                sb.append(",\"clientURLs\":");
                strings(sb, m.getClientURLsList());
            }
            sb.append('}');
        }
        return sb.append("]\n").toString();
    }

    private static void strings(StringBuilder sb, List<String> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            GoJsonString.append(sb, values.get(i));
        }
        sb.append(']');
    }

    /** A time as Go's RFC 3339 with nanoseconds prints it: trailing zeros of the fraction dropped, "Z" for UTC. */
    static String goTime(OffsetDateTime t) {
        StringBuilder sb = new StringBuilder(SECONDS.format(t));
        int nanos = t.getNano();
        if (nanos != 0) {
            String fraction = String.format("%09d", nanos).replaceAll("0+$", "");
            sb.append('.').append(fraction);
        }
        int offset = t.getOffset().getTotalSeconds();
        if (offset == 0) {
            return sb.append('Z').toString();
        }
        int minutes = Math.abs(offset) / 60;
        return sb.append(offset < 0 ? '-' : '+').append(String.format("%02d:%02d", minutes / 60, minutes % 60)).toString();
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, String type, String body, String clusterId,
            boolean keepAlive) {
        FullHttpResponse r = response(status, type, body);
        if (clusterId != null) {
            r.headers().set("X-Etcd-Cluster-Id", clusterId);
        }
        if (status == HttpResponseStatus.NOT_FOUND) {
            r.headers().set("X-Content-Type-Options", "nosniff");
        }
        write(ctx, r, keepAlive);
    }

    private static FullHttpResponse response(HttpResponseStatus status, String type, String body) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
        return r;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpResponse r, boolean keepAlive) {
        if (!keepAlive) {
            r.headers().set(HttpHeaderNames.CONNECTION, "close");
        }
        ctx.writeAndFlush(r).addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a malformed request or a peer that went away: nothing to answer
    }
}
