package io.etcdj.server.listen;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import java.nio.charset.StandardCharsets;

/**
 * What a client's frames do to a {@link GrpcHttp2Connection}, as Netty's frame reader hands them
 * over (it has checked each frame's size, flags and stream for its type, and decoded the header
 * blocks): streams open and end as RFC 9113's section 5.1 says for a server, within the limit on
 * concurrent streams; DATA counts against the windows; SETTINGS and PING are acknowledged. Streams
 * the server has already ended are forgotten, and what a client still sends on them is dropped.
 * Errors are thrown as the reader's are: a stream error resets the stream, a connection error ends
 * the connection with a GOAWAY.
 */
final class ClientFrames implements Http2FrameListener {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final GrpcHttp2Connection connection;
    private final DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader(
            new RepeatedHeaderBlocks(new DefaultHttp2HeadersDecoder(true, GrpcHttp2Connection.MAX_HEADER_LIST)));
    /** Bytes read that do not make a whole frame yet. */
    private ByteBuf cumulation;
    private boolean prefaceRead;

    ClientFrames(GrpcHttp2Connection connection) {
        this.connection = connection;
    }

    /** Bytes the client sent: the preface first, then every whole frame among what has arrived. */
    void read(ChannelHandlerContext ctx, ByteBuf in) throws Http2Exception {
        cumulation = cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        try {
            readFrames(ctx);
        } finally {
            if (cumulation != null && !cumulation.isReadable()) {
                cumulation.release();
                cumulation = null;
            }
        }
    }

    private void readFrames(ChannelHandlerContext ctx) throws Http2Exception {
        if (!prefaceRead) {
            if (cumulation.readableBytes() < PREFACE.length) {
                return;
            }
            for (byte b : PREFACE) {
                if (cumulation.readByte() != b) {
                    throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "Unexpected HTTP/2 connection preface");
                }
            }
            prefaceRead = true;
        }
        while (cumulation.isReadable() && ctx.channel().isActive()) {
            try {
                reader.readFrame(ctx, cumulation, this);
                return;
            } catch (Http2Exception.StreamException e) {
                connection.reset(e.streamId(), e.error());
            }
        }
    }

    /** The connection is gone. */
    void release() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream)
            throws Http2Exception {
        GrpcStream s = connection.streams.get(streamId);
        if (s != null) {
            if (s.clientDone) {
                throw Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED, "Stream %d is half-closed (remote)", streamId);
            }
            if (endOfStream) { // trailers from the client
                s.clientDone = true;
                s.call.halfClosed();
            }
            return;
        }
        if ((streamId & 1) == 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "Client sent HEADERS on a server stream: %d", streamId);
        }
        if (streamId <= connection.lastStreamId) {
            return; // a stream the server has ended: the client's trailers for it, or late headers
        }
        connection.lastStreamId = streamId;
        if (connection.goingAway) {
            return; // opened after the GOAWAY named the last stream served
        }
        if (connection.atStreamLimit()) {
            throw Http2Exception.streamError(streamId, Http2Error.REFUSED_STREAM, "Maximum active streams violated for this endpoint.");
        }
        connection.open(streamId, headers, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency, short weight,
            boolean exclusive, int padding, boolean endOfStream) throws Http2Exception {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream); // priorities are not kept
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        int bytes = data.readableBytes() + padding;
        if (streamId > connection.lastStreamId) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "Stream %d does not exist", streamId);
        }
        connection.receiveWindows.received(bytes);
        GrpcStream s = connection.streams.get(streamId);
        if (s == null) {
            connection.receiveWindows.giveBack(null, bytes); // a stream the server has ended
            return bytes;
        }
        if (s.clientDone) {
            connection.receiveWindows.giveBack(null, bytes);
            throw Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED, "Stream %d is half-closed (remote)", streamId);
        }
        connection.receiveWindows.receivedOn(s, bytes);
        connection.dataRead(s, data, bytes, endOfStream);
        return bytes;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        GrpcStream s = connection.streams.get(streamId);
        if (s != null) {
            connection.abandon(s);
        }
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        Long tableSize = settings.headerTableSize();
        if (tableSize != null) {
            connection.headerBlocks.maxTableSize(tableSize);
        }
        Integer maxFrame = settings.maxFrameSize();
        if (maxFrame != null) {
            connection.sendWindows.maxFrame(maxFrame);
        }
        Integer window = settings.initialWindowSize();
        if (window != null) {
            connection.sendWindows.initialWindow(window, connection.streams.values());
        }
        connection.out.settingsAck();
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
        connection.out.ping(true, data);
        connection.pingRead();
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) throws Http2Exception {
        if (streamId == 0) {
            connection.sendWindows.windowUpdate(null, windowSizeIncrement);
            return;
        }
        GrpcStream s = connection.streams.get(streamId);
        if (s != null) {
            connection.sendWindows.windowUpdate(s, windowSizeIncrement);
            s.call.readyChanged();
        } else if (streamId > connection.lastStreamId) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "Stream %d does not exist", streamId);
        }
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight, boolean exclusive) {
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers, int padding)
            throws Http2Exception {
        throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, "A client cannot push.");
    }

    /** A client's GOAWAY: the streams it has open still end. */
    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags, ByteBuf payload) {
    }
}
