package io.etcdj.server.proxy.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import org.junit.jupiter.api.Test;

/** Key prefixing as etcd's namespace package does it, including the end of the keyspace. */
class NamespaceTest {
    private static ByteString b(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void keysAndEndsGetThePrefix() {
        Namespace ns = new Namespace("ns/");
        RangeRequest r = ns.in(RangeRequest.newBuilder().setKey(b("a")).setRangeEnd(b("b")).build());
        assertEquals(b("ns/a"), r.getKey());
        assertEquals(b("ns/b"), r.getRangeEnd());
        assertEquals(b("a"), ns.strip(b("ns/a")));
    }

    @Test
    void fromKeyEndsAtTheEndOfThePrefix() {
        assertEquals(b("ns0"), new Namespace("ns/").end(ByteString.copyFrom(new byte[] {0})));
        assertEquals(ByteString.EMPTY, new Namespace("ns/").end(ByteString.EMPTY));
        Namespace ff = new Namespace("\u007f");
        assertEquals(ByteString.copyFrom(new byte[] {(byte) 0x80}), ff.end(ByteString.copyFrom(new byte[] {0})));
    }
}
