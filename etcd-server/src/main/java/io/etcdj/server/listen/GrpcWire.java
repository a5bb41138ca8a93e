package io.etcdj.server.listen;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Empty;
import com.google.protobuf.MessageLite;
import io.grpc.InternalMetadata;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** gRPC's conventions on HTTP/2 headers: metadata both ways (binary values in base64), timeouts. */
final class GrpcWire {
    /** gRPC's message prefix: a compressed flag and the length. */
    private static final int PREFIX = 5;
    /** The class of grpc-java's protobuf marshallers (one per message type, all of one class). */
    private static final Class<?> PROTOBUF_MARSHALLER = ProtoUtils.marshaller(Empty.getDefaultInstance()).getClass();
    private static final AsciiString BINARY_SUFFIX = AsciiString.of("-bin");
    private static final Base64.Encoder BASE64 = Base64.getEncoder().withoutPadding();
    private static final AsciiString CONTENT_TYPE = AsciiString.of("content-type");
    private static final AsciiString GRPC = AsciiString.of("application/grpc");
    private static final AsciiString OK = AsciiString.of("200");
    static final AsciiString ENCODING = AsciiString.of("grpc-encoding");
    private static final AsciiString ACCEPT_ENCODING = AsciiString.of("grpc-accept-encoding");
    private static final AsciiString IDENTITY = AsciiString.of("identity");
    private static final AsciiString GZIP = AsciiString.of("gzip");

    private GrpcWire() {
    }

    static Http2Headers toHeaders(Http2Headers h, Metadata md) {
        byte[][] pairs = InternalMetadata.serialize(md);
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            AsciiString name = new AsciiString(pairs[i], false);
            byte[] value = name.endsWith(BINARY_SUFFIX) ? BASE64.encode(pairs[i + 1]) : pairs[i + 1];
            h.add(name, new AsciiString(value, false));
        }
        return h;
    }

    /** An answer's or a trailers-only end's headers: status, content type, {@code md}. */
    static Http2Headers responseHeaders(Metadata md) {
        return toHeaders(new DefaultHttp2Headers().status(OK).set(CONTENT_TYPE, GRPC), md);
    }

    /** An answer's headers as grpc-java's server sends them: its answers are not compressed, it reads gzip. */
    static Http2Headers answerHeaders(Metadata md) {
        return responseHeaders(md).set(ENCODING, IDENTITY).set(ACCEPT_ENCODING, GZIP);
    }

    /** A request's {@code grpc-encoding} grpc-java's server reads: none, identity or gzip. */
    static boolean decompressible(CharSequence encoding) {
        return encoding == null || IDENTITY.contentEquals(encoding) || GZIP.contentEquals(encoding);
    }

    static boolean gzip(CharSequence encoding) {
        return encoding != null && GZIP.contentEquals(encoding);
    }

    static Metadata toMetadata(Http2Headers headers) {
        int n = 0;
        byte[][] pairs = new byte[headers.size() * 2][];
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            CharSequence k = e.getKey();
            if (k.length() == 0 || k.charAt(0) == ':') {
                continue;
            }
            AsciiString name = AsciiString.of(k);
            byte[] value = AsciiString.of(e.getValue()).toByteArray();
            pairs[n++] = name.toByteArray();
            pairs[n++] = name.endsWith(BINARY_SUFFIX) ? Base64.getDecoder().decode(value) : value;
        }
        return InternalMetadata.newMetadata(n / 2, Arrays.copyOf(pairs, n));
    }

    /** grpc-timeout: up to 8 digits and a unit (H, M, S, m, u, n). */
    static long timeoutNanos(CharSequence value) {
        long n = Long.parseLong(value.subSequence(0, value.length() - 1).toString());
        return switch (value.charAt(value.length() - 1)) {
            case 'H' -> TimeUnit.HOURS.toNanos(n);
            case 'M' -> TimeUnit.MINUTES.toNanos(n);
            case 'S' -> TimeUnit.SECONDS.toNanos(n);
            case 'm' -> TimeUnit.MILLISECONDS.toNanos(n);
            case 'u' -> TimeUnit.MICROSECONDS.toNanos(n);
            default -> n;
        };
    }

    /**
     * {@code message} framed for the wire (gRPC's five-byte prefix, uncompressed) in one buffer of
     * {@code alloc}'s. A protobuf message under grpc-java's protobuf marshaller is encoded straight
     * into the buffer: through the marshaller's stream every answer cost a copy buffer of 8 KiB (a
     * third of what a put allocated on the event loop); another marshaller's stream is copied.
     */
    static <R> ByteBuf frame(ByteBufAllocator alloc, MethodDescriptor<?, R> method, R message) {
        try {
            if (message instanceof MessageLite m && method.getResponseMarshaller().getClass() == PROTOBUF_MARSHALLER) {
                int size = m.getSerializedSize();
                ByteBuf out = alloc.buffer(PREFIX + size);
                out.writeByte(0).writeInt(size);
                CodedOutputStream encoder = CodedOutputStream.newInstance(out.nioBuffer(PREFIX, size));
                m.writeTo(encoder);
                encoder.flush();
                encoder.checkNoSpaceLeft();
                return out.writerIndex(PREFIX + size);
            }
            InputStream in = method.streamResponse(message);
            ByteBuf out = alloc.buffer(PREFIX + in.available());
            out.writeByte(0).writeInt(0);
            in.transferTo(new ByteBufOutputStream(out));
            return out.setInt(1, out.readableBytes() - PREFIX);
        } catch (IOException e) {
            throw new IllegalStateException("serializing an answer failed", e);
        }
    }

    /**
     * A whole request message: grpc-java's marshallers read a stream of known length at once.
     * {@code heldBytes}: what of the client's flow-control window it holds until the call takes it.
     */
    static final class Message extends ByteArrayInputStream implements KnownLength {
        final int heldBytes;

        Message(byte[] bytes, int heldBytes) {
            super(bytes);
            this.heldBytes = heldBytes;
        }
    }

}
