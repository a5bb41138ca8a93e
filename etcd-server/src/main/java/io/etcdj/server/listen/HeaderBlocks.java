package io.etcdj.server.listen;

import io.grpc.InternalStatus;
import io.grpc.Metadata;
import io.grpc.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The HPACK header blocks (RFC 7541) of one connection's answers. The two that nearly every call
 * sends, an answer's headers without metadata and the trailers of a call that succeeded without
 * metadata, are constant bytes that use only HPACK's static table and literals never indexed, so
 * they leave the connection's dynamic table as it was; every other block goes through Netty's
 * encoder, which keeps that table. On the connection's event loop.
 */
final class HeaderBlocks {
    /**
     * {@code :status: 200}, {@code content-type: application/grpc}, {@code grpc-encoding: identity},
     * {@code grpc-accept-encoding: gzip}: {@link GrpcWire#answerHeaders} of empty metadata.
     */
    static final byte[] PLAIN_ANSWER = concat(
            new byte[] {(byte) 0x88}, // indexed: :status 200 (static entry 8)
            new byte[] {0x0f, 0x10}, literal("application/grpc"), // content-type (static entry 31), not indexed
            newName("grpc-encoding", "identity"),
            newName("grpc-accept-encoding", "gzip"));
    /** {@code grpc-status: 0}. */
    static final byte[] OK_TRAILERS = newName("grpc-status", "0");

    private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
    /**
     * The client changed the table's size and the encoder has not yet said so: RFC 7541 wants that
     * at the start of the next block, which the constant blocks cannot carry.
     */
    private boolean sizeUpdatePending;

    /** An answer's headers without metadata. */
    byte[] plainAnswer(int stream) {
        return sizeUpdatePending ? encode(stream, GrpcWire.answerHeaders(new Metadata())) : PLAIN_ANSWER;
    }

    /** The trailers of a call that succeeded without metadata. */
    byte[] okTrailers(int stream) {
        if (!sizeUpdatePending) {
            return OK_TRAILERS;
        }
        Metadata trailers = new Metadata();
        trailers.put(InternalStatus.CODE_KEY, Status.OK);
        return encode(stream, GrpcWire.toHeaders(new DefaultHttp2Headers(), trailers));
    }

    /**
     * {@code headers} through the connection's encoder (and its dynamic table). It fails only for a
     * header list above a limit, and none is set.
     */
    byte[] encode(int stream, Http2Headers headers) {
        ByteBuf block = Unpooled.buffer(128);
        try {
            encoder.encodeHeaders(stream, headers, block);
            sizeUpdatePending = false;
            return ByteBufUtil.getBytes(block);
        } catch (Http2Exception e) {
            throw new IllegalStateException("encoding headers failed", e);
        } finally {
            block.release();
        }
    }

    /** The client's SETTINGS_HEADER_TABLE_SIZE: the encoder's table may be no larger. */
    void maxTableSize(long bytes) throws Http2Exception {
        sizeUpdatePending |= bytes != encoder.configuration().maxHeaderTableSize();
        encoder.configuration().maxHeaderTableSize(bytes);
    }

    /** A string literal without Huffman coding; the strings here are shorter than 127 bytes. */
    private static byte[] literal(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return concat(new byte[] {(byte) b.length}, b);
    }

    /** A literal header field without indexing, with a new name. */
    private static byte[] newName(String name, String value) {
        return concat(new byte[] {0x00}, literal(name), literal(value));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
