package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.KeyValue;
import io.grpc.MethodDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An answer on the wire: gRPC's prefix (not compressed, the length) and the message's bytes, whatever the marshaller. */
class GrpcWireTest {
    private static byte[] framed(byte[] message) {
        byte[] expected = new byte[5 + message.length];
        expected[1] = (byte) (message.length >>> 24);
        expected[2] = (byte) (message.length >>> 16);
        expected[3] = (byte) (message.length >>> 8);
        expected[4] = (byte) message.length;
        System.arraycopy(message, 0, expected, 5, message.length);
        return expected;
    }

    private static byte[] taken(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void aProtobufAnswerIsItsSerializedBytesBehindThePrefix() {
        RangeResponse answer = RangeResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setRevision(42).setMemberId(7))
                .addKvs(KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFrom(new byte[70_000])))
                .setCount(1).build();
        assertArrayEquals(framed(answer.toByteArray()),
                taken(GrpcWire.frame(PooledByteBufAllocator.DEFAULT, KVGrpc.getRangeMethod(), answer)), "direct buffer");
        assertArrayEquals(framed(answer.toByteArray()),
                taken(GrpcWire.frame(UnpooledByteBufAllocator.DEFAULT, KVGrpc.getRangeMethod(), answer)), "heap buffer");
    }

    @Test
    void anEmptyAnswerIsThePrefixAlone() {
        assertArrayEquals(new byte[5], taken(GrpcWire.frame(PooledByteBufAllocator.DEFAULT, KVGrpc.getPutMethod(),
                PutResponse.getDefaultInstance())));
    }

    @Test
    void anotherMarshallersAnswerIsWhatItsStreamGives() {
        MethodDescriptor<String, String> method = MethodDescriptor.<String, String>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Text/Echo")
                .setRequestMarshaller(new Text()).setResponseMarshaller(new Text()).build();
        byte[] text = "héllo, wire".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(framed(text), taken(GrpcWire.frame(PooledByteBufAllocator.DEFAULT, method, "héllo, wire")));
        assertEquals(5, taken(GrpcWire.frame(PooledByteBufAllocator.DEFAULT, method, "")).length);
    }

    private static final class Text implements MethodDescriptor.Marshaller<String> {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
