package io.etcdj.benchmark.probe;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.KeyValue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The answers both probe servers give: a range finds its key with a 256-byte value, a put moves the
 * revision on. Each request is decoded and each answer built in full, as a member's would be, so
 * the two servers differ only in the layer between the socket and these calls.
 */
final class ProbeAnswers {
    private static final ByteString VALUE = ByteString.copyFrom(new byte[256]);
    private final AtomicLong revision = new AtomicLong(1);

    RangeResponse range(RangeRequest request) {
        long rev = revision.get();
        KeyValue kv = KeyValue.newBuilder().setKey(request.getKey()).setValue(VALUE).setCreateRevision(1)
                .setModRevision(rev).setVersion(rev).build();
        return RangeResponse.newBuilder().setHeader(header(rev)).addKvs(kv).setCount(1).build();
    }

    PutResponse put(PutRequest request) {
        if (request.getKey().isEmpty()) {
            throw new IllegalArgumentException("etcdserver: key is not provided");
        }
        return PutResponse.newBuilder().setHeader(header(revision.incrementAndGet())).build();
    }

    private static ResponseHeader header(long rev) {
        return ResponseHeader.newBuilder().setClusterId(0x1c2d3e4f5a6b7c8dL).setMemberId(0x8e9f0a1b2c3d4e5fL)
                .setRevision(rev).setRaftTerm(2).build();
    }
}
