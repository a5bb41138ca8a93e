package io.etcdj.server.gateway;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Stands in for the HTTP handlers on a gRPC-only client port (--listen-client-http-urls moves
 * HTTP elsewhere): an HTTP/1 connection is closed at its first request, as etcd's gRPC-only
 * listener drops what is not gRPC.
 */
@ChannelHandler.Sharable
public final class HttpRefused extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        ctx.close();
    }
}
