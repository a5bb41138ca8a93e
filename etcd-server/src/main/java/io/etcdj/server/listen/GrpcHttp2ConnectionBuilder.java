package io.etcdj.server.listen;

import io.etcdj.server.log.Log;
import io.grpc.HandlerRegistry;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Settings;

/** Netty's codec set up for one {@link GrpcHttp2Connection}: its SETTINGS, and the handler as its own frame listener. */
final class GrpcHttp2ConnectionBuilder extends AbstractHttp2ConnectionHandlerBuilder<GrpcHttp2Connection, GrpcHttp2ConnectionBuilder> {
    private final HandlerRegistry registry;
    private final GrpcHttp2Connection.Settings settings;
    private final Log log;

    GrpcHttp2ConnectionBuilder(HandlerRegistry registry, GrpcHttp2Connection.Settings settings, Log log) {
        this.registry = registry;
        this.settings = settings;
        this.log = log;
        long maxStreams = Math.min(Integer.MAX_VALUE, settings.maxConcurrentStreams());
        initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams).initialWindowSize(GrpcHttp2Connection.WINDOW));
    }

    @Override
    public GrpcHttp2Connection build() {
        return super.build();
    }

    @Override
    protected GrpcHttp2Connection build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initial) {
        GrpcHttp2Connection handler = new GrpcHttp2Connection(decoder, encoder, initial, registry, settings.maxMessageBytes(),
                settings.keepAlive(), log);
        frameListener(handler);
        return handler;
    }
}
