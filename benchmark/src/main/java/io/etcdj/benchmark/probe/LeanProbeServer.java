package io.etcdj.benchmark.probe;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The probe's KV methods on Netty's HTTP/2 codec alone: a request's frames are gathered per stream,
 * the gRPC message is decoded when the client half-closes, and the answer leaves as gRPC's three
 * frames (headers, the length-prefixed message, trailers), flushed when the read that brought the
 * request ends. No deadlines, metadata, compression or flow-control tuning: the least a unary gRPC
 * call needs, to measure what grpc-java's layer adds on top of it.
 */
final class LeanProbeServer {
    private static final AsciiString RANGE = AsciiString.of("/etcdserverpb.KV/Range");
    private static final AsciiString PUT = AsciiString.of("/etcdserverpb.KV/Put");
    private static final Http2Headers OK_HEADERS = new DefaultHttp2Headers().status("200")
            .set("content-type", "application/grpc");
    private static final Http2Headers OK_TRAILERS = new DefaultHttp2Headers().set("grpc-status", "0");

    private LeanProbeServer() {
    }

    static Channel start(int port, EventLoopGroup boss, EventLoopGroup workers) throws IOException {
        ServerBootstrap b = new ServerBootstrap().group(boss, workers).channel(EpollServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        Calls calls = new Calls(new ProbeAnswers());
                        Http2ConnectionHandler http2 = new Http2ConnectionHandlerBuilder().frameListener(calls).build();
                        calls.encoder = http2.encoder();
                        ch.pipeline().addLast(http2);
                    }
                });
        try {
            return b.bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding", e);
        }
    }

    /** One connection's calls in flight, by stream. */
    private static final class Calls extends Http2FrameAdapter {
        private final ProbeAnswers answers;
        private final IntObjectHashMap<Call> open = new IntObjectHashMap<>();
        private Http2ConnectionEncoder encoder;

        Calls(ProbeAnswers answers) {
            this.answers = answers;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                boolean endOfStream) {
            open.put(streamId, new Call(headers.path()));
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
                throws Http2Exception {
            int processed = data.readableBytes() + padding;
            Call call = open.get(streamId);
            if (call == null) {
                return processed;
            }
            if (call.body == null) {
                call.body = ctx.alloc().buffer(data.readableBytes());
            }
            call.body.writeBytes(data);
            if (endOfStream) {
                open.remove(streamId);
                answer(ctx, streamId, call);
            }
            return processed;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            Call call = open.remove(streamId);
            if (call != null && call.body != null) {
                call.body.release();
            }
        }

        private void answer(ChannelHandlerContext ctx, int streamId, Call call) {
            ByteBuf body = call.body;
            try {
                body.skipBytes(5); // the compression flag and the length: one uncompressed message
                CodedInputStream in = CodedInputStream.newInstance(body.nioBuffer());
                MessageLite reply;
                if (RANGE.contentEquals(call.path)) {
                    reply = answers.range(RangeRequest.parseFrom(in));
                } else if (PUT.contentEquals(call.path)) {
                    reply = answers.put(PutRequest.parseFrom(in));
                } else {
                    encoder.writeHeaders(ctx, streamId, new DefaultHttp2Headers().status("200")
                            .set("content-type", "application/grpc").set("grpc-status", "12"), 0, true, ctx.newPromise());
                    return;
                }
                int size = reply.getSerializedSize();
                ByteBuf out = ctx.alloc().buffer(5 + size);
                out.writeByte(0).writeInt(size);
                CodedOutputStream cos = CodedOutputStream.newInstance(out.nioBuffer(5, size));
                reply.writeTo(cos);
                out.writerIndex(5 + size);
                encoder.writeHeaders(ctx, streamId, OK_HEADERS, 0, false, ctx.newPromise());
                encoder.writeData(ctx, streamId, out, 0, false, ctx.newPromise());
                encoder.writeHeaders(ctx, streamId, OK_TRAILERS, 0, true, ctx.newPromise());
            } catch (IOException | IllegalArgumentException e) {
                encoder.writeHeaders(ctx, streamId, new DefaultHttp2Headers().status("200")
                        .set("content-type", "application/grpc").set("grpc-status", "3"), 0, true, ctx.newPromise());
            } finally {
                body.release();
            }
        }
    }

    /** A call's path and the bytes of its request so far. */
    private static final class Call {
        final CharSequence path;
        ByteBuf body;

        Call(CharSequence path) {
            this.path = path;
        }
    }
}
