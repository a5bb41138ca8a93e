package io.etcdj.server.listen;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;

/**
 * Netty's HPACK decoder for one connection's request headers, with the last header block that
 * only named entries of the tables remembered with what it decoded to. A client sends the same
 * headers for every call of one method, and once its encoder has them in its dynamic table the
 * block is the same few bytes each time (RFC 7541, section 6.1: one indexed field per byte). Such
 * a block changes no table, so while no other block has been decoded since (any other may add to
 * the dynamic table or resize it), the same bytes decode to the same headers, and are not decoded
 * again. The headers handed out are shared: whoever reads them does not change them.
 */
final class RepeatedHeaderBlocks implements Http2HeadersDecoder {
    private final DefaultHttp2HeadersDecoder decoder;
    private byte[] lastBlock;
    private Http2Headers lastHeaders;

    RepeatedHeaderBlocks(DefaultHttp2HeadersDecoder decoder) {
        this.decoder = decoder;
    }

    @Override
    public Http2Headers decodeHeaders(int streamId, ByteBuf block) throws Http2Exception {
        int at = block.readerIndex();
        int length = block.readableBytes();
        if (lastBlock != null && length == lastBlock.length && sameBytes(block, at)) {
            block.skipBytes(length);
            return lastHeaders;
        }
        boolean tableUnchanged = indexedFieldsOnly(block, at, length);
        byte[] bytes = tableUnchanged ? ByteBufUtil.getBytes(block, at, length) : null;
        lastBlock = null; // a block that fails to decode may have changed the table before it failed
        lastHeaders = null;
        Http2Headers headers = decoder.decodeHeaders(streamId, block);
        lastBlock = bytes;
        lastHeaders = tableUnchanged ? headers : null;
        return headers;
    }

    private boolean sameBytes(ByteBuf block, int at) {
        for (int i = 0; i < lastBlock.length; i++) {
            if (block.getByte(at + i) != lastBlock[i]) {
                return false;
            }
        }
        return true;
    }

    /** Every byte an indexed header field of index 1 to 126 (the pattern 1xxxxxxx, neither 0 nor the multi-byte form). */
    private static boolean indexedFieldsOnly(ByteBuf block, int at, int length) {
        if (length == 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int b = block.getUnsignedByte(at + i);
            if (b <= 0x80 || b == 0xff) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Configuration configuration() {
        return decoder.configuration();
    }
}
