package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.InternalStatus;
import io.grpc.Metadata;
import io.grpc.Status;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The constant header blocks decode, with an HPACK decoder nobody here wrote, to what the general path sends. */
class HeaderBlocksTest {
    private static Map<String, String> decode(DefaultHttp2HeadersDecoder decoder, byte[] block) throws Exception {
        Http2Headers h = decoder.decodeHeaders(1, Unpooled.wrappedBuffer(block));
        Map<String, String> m = new TreeMap<>();
        h.forEach(e -> m.put(e.getKey().toString(), e.getValue().toString()));
        return m;
    }

    private static Map<String, String> asMap(Http2Headers h) {
        Map<String, String> m = new TreeMap<>();
        h.forEach(e -> m.put(e.getKey().toString(), e.getValue().toString()));
        return m;
    }

    @Test
    void thePlainAnswerIsTheAnswerHeadersOfNoMetadata() throws Exception {
        assertEquals(asMap(GrpcWire.answerHeaders(new Metadata())), decode(new DefaultHttp2HeadersDecoder(), HeaderBlocks.PLAIN_ANSWER));
    }

    @Test
    void theOkTrailersAreAStatusOfZero() throws Exception {
        Metadata trailers = new Metadata();
        trailers.put(InternalStatus.CODE_KEY, Status.OK);
        assertEquals(asMap(GrpcWire.toHeaders(new DefaultHttp2Headers(), trailers)), decode(new DefaultHttp2HeadersDecoder(),
                HeaderBlocks.OK_TRAILERS));
    }

    @Test
    void theConstantBlocksLeaveTheDecodersTableAsTheEncoderKeepsIt() throws Exception {
        HeaderBlocks blocks = new HeaderBlocks();
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder();
        Metadata md = new Metadata();
        md.put(Metadata.Key.of("answered-by", Metadata.ASCII_STRING_MARSHALLER), "member-1");
        Http2Headers withMetadata = GrpcWire.answerHeaders(md);
        for (int i = 0; i < 3; i++) { // the encoder indexes the first time, then refers to its table
            assertEquals(asMap(withMetadata), decode(decoder, blocks.encode(1, withMetadata)));
            decode(decoder, HeaderBlocks.PLAIN_ANSWER);
            decode(decoder, HeaderBlocks.OK_TRAILERS);
        }
    }

    @Test
    void afterTheClientShrinksTheTableTheNextBlockSaysSoFirst() throws Exception {
        HeaderBlocks blocks = new HeaderBlocks();
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder();
        decoder.configuration().maxHeaderTableSize(0); // the client's SETTINGS_HEADER_TABLE_SIZE
        blocks.maxTableSize(0);
        assertEquals(asMap(GrpcWire.answerHeaders(new Metadata())), decode(decoder, blocks.plainAnswer(1)));
        assertEquals("0", decode(decoder, blocks.okTrailers(1)).get("grpc-status"));
        assertEquals(HeaderBlocks.OK_TRAILERS, blocks.okTrailers(3), "once said, the constant blocks serve again");
    }
}
