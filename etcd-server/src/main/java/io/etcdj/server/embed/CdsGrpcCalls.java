package io.etcdj.server.embed;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The unary KV and lease calls a client makes first, sent by the class-data training
 * ({@link CdsTraining}) over one plaintext HTTP/2 connection written by hand: the member then
 * loads its whole request path (the client port's HTTP/2, the KV service, the request and
 * response messages, a write's way through Raft and the backend) while the class list is
 * recorded, so a fresh member's first requests run archived classes instead of parsing and
 * verifying them from the jar. A client library would put its own classes into the archive, which
 * a member never loads.
 */
final class CdsGrpcCalls implements AutoCloseable {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int RST_STREAM = 3;
    private static final int SETTINGS = 4;
    private static final int GOAWAY = 7;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    /** The lease the training grants (a client may choose its lease's ID, as etcdctl's users rarely do). */
    static final long LEASE_ID = 0x636473;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final String authority;
    private int nextStream = 1;

    private CdsGrpcCalls(Socket socket, int port) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
        this.authority = "127.0.0.1:" + port;
        out.write(PREFACE);
        frame(SETTINGS, 0, 0, new byte[0]);
    }

    /** Connects to a member's plaintext client port. */
    static CdsGrpcCalls connect(int port, int timeoutMillis) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            return new CdsGrpcCalls(s, port);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The calls, in the order a client's first session makes them; each must be answered with a message. */
    void trainKvAndLease() throws IOException {
        ByteString key = ByteString.copyFromUtf8("cds-training");
        ByteString value = ByteString.copyFromUtf8("v");
        PutRequest put = PutRequest.newBuilder().setKey(key).setValue(value).build();
        call("/etcdserverpb.KV/Put", put);
        call("/etcdserverpb.KV/Range", RangeRequest.newBuilder().setKey(key).build());
        call("/etcdserverpb.KV/Range", RangeRequest.newBuilder().setKey(key).setSerializable(true).build());
        call("/etcdserverpb.KV/Txn", TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.VERSION)
                        .setResult(Compare.CompareResult.GREATER).setVersion(0))
                .addSuccess(RequestOp.newBuilder().setRequestPut(put))
                .addFailure(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(key)))
                .build());
        call("/etcdserverpb.KV/DeleteRange", DeleteRangeRequest.newBuilder().setKey(key).build());
        call("/etcdserverpb.Lease/LeaseGrant", LeaseGrantRequest.newBuilder().setID(LEASE_ID).setTTL(60).build());
    }

    /** One unary call; returns once its trailers came, failing unless a response message came first. */
    private void call(String path, MessageLite request) throws IOException {
        int stream = nextStream;
        nextStream += 2;
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        header(headers, ":method", "POST");
        header(headers, ":scheme", "http");
        header(headers, ":path", path);
        header(headers, ":authority", authority);
        header(headers, "content-type", "application/grpc");
        header(headers, "te", "trailers");
        frame(HEADERS, END_HEADERS, stream, headers.toByteArray());
        byte[] message = request.toByteArray();
        // gRPC's prefix: not compressed, the message's length
        byte[] data = ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
        frame(DATA, END_STREAM, stream, data);
        out.flush();
        boolean answered = false;
        while (true) {
            int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int id = in.readInt() & 0x7fffffff;
            in.skipNBytes(length); // only the frames' kinds matter here; EOFException if the member closed
            if (type == SETTINGS && (flags & ACK) == 0) {
                frame(SETTINGS, ACK, 0, new byte[0]);
                out.flush();
            } else if (type == GOAWAY || id == stream && type == RST_STREAM) {
                throw new IOException(path + ": the member reset the " + (type == GOAWAY ? "connection" : "stream"));
            } else if (id == stream && type == DATA && length > 5) {
                answered = true;
            } else if (id == stream && type == HEADERS && (flags & END_STREAM) != 0) {
                if (!answered) {
                    throw new IOException(path + ": the member answered with an error");
                }
                return;
            }
        }
    }

    /** A literal header field without indexing, new name, no Huffman coding (RFC 7541, 6.2.2). */
    private static void header(ByteArrayOutputStream block, String name, String value) {
        block.write(0);
        string(block, name);
        string(block, value);
    }

    private static void string(ByteArrayOutputStream block, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length >= 127) {
            throw new IllegalArgumentException("header too long for a one-byte length: " + s);
        }
        block.write(bytes.length);
        block.writeBytes(bytes);
    }

    private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] head = {
            (byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
            (byte) type, (byte) flags,
            (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream};
        out.write(head);
        out.write(payload);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
