package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Blocks a client's HPACK encoder (Netty's) writes, decoded with the remembered block and by a plain decoder side by side. */
class RepeatedHeaderBlocksTest {
    private static Http2Headers request(String path, String token) {
        return new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("127.0.0.1:2379")
                .add("content-type", "application/grpc").add("te", "trailers").add("user-agent", "grpc-go/1.26.0")
                .add("token", token);
    }

    private static byte[] encode(DefaultHttp2HeadersEncoder encoder, Http2Headers headers) throws Exception {
        ByteBuf out = Unpooled.buffer();
        encoder.encodeHeaders(1, headers, out);
        return ByteBufUtil.getBytes(out);
    }

    private static List<String> asList(Http2Headers h) {
        List<String> l = new ArrayList<>();
        h.forEach(e -> l.add(e.getKey() + ": " + e.getValue()));
        return l;
    }

    /** The headers, or the decoder's error: put2's bytes after range1 name a regular header before a pseudo-header. */
    private static List<String> decode(Http2HeadersDecoder decoder, byte[] block) {
        ByteBuf in = Unpooled.wrappedBuffer(block);
        try {
            List<String> headers = asList(decoder.decodeHeaders(1, in));
            assertEquals(0, in.readableBytes(), "the block is read whole");
            return headers;
        } catch (Http2Exception e) {
            return List.of("error: " + e.getMessage());
        }
    }

    @Test
    void everyBlockDecodesAsAPlainDecoderDecodesIt() throws Exception {
        DefaultHttp2HeadersEncoder client = new DefaultHttp2HeadersEncoder();
        byte[] put1 = encode(client, request("/etcdserverpb.KV/Put", "t1"));
        byte[] put2 = encode(client, request("/etcdserverpb.KV/Put", "t1"));
        byte[] range1 = encode(client, request("/etcdserverpb.KV/Range", "t2")); // new entries: every index moves
        byte[] put3 = encode(client, request("/etcdserverpb.KV/Put", "t1"));
        assertTrue(put2.length < 12 && put3.length < 12, "repeated headers are indexed fields only");
        assertFalse(Arrays.equals(put2, put3), "the same headers after new entries are other bytes");

        // put2's bytes again after range1: the same bytes, now naming range1's entries
        List<byte[]> sequence = List.of(put1, put2, put2, range1, put2, put3, put3, put2);
        RepeatedHeaderBlocks remembered = new RepeatedHeaderBlocks(new DefaultHttp2HeadersDecoder(true, 8192));
        DefaultHttp2HeadersDecoder plain = new DefaultHttp2HeadersDecoder(true, 8192);
        for (int i = 0; i < sequence.size(); i++) {
            assertEquals(decode(plain, sequence.get(i)), decode(remembered, sequence.get(i)), "block " + i);
        }
    }
}
