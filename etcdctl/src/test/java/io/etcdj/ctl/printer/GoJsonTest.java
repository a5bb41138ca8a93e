package io.etcdj.ctl.printer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.mvccpb.KeyValue;
import org.junit.jupiter.api.Test;

class GoJsonTest {

    private static final ResponseHeader HEADER = ResponseHeader.newBuilder().setClusterId(-1L).setMemberId(7)
            .setRevision(2).setRaftTerm(2).build();

    @Test
    void writesGogoStructsWithOmitEmptyAndBase64() {
        RangeResponse r = RangeResponse.newBuilder().setHeader(HEADER)
                .addKvs(KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("foo")).setCreateRevision(2)
                        .setModRevision(2).setVersion(1).setValue(ByteString.copyFromUtf8("bar")))
                .setCount(1).build();
        assertEquals("{\"header\":{\"cluster_id\":18446744073709551615,\"member_id\":7,\"revision\":2,\"raft_term\":2},"
                + "\"kvs\":[{\"key\":\"Zm9v\",\"create_revision\":2,\"mod_revision\":2,\"version\":1,\"value\":\"YmFy\"}],"
                + "\"count\":1}", GoJson.of(r));
    }

    @Test
    void writesOneofAsGoInterfaceField() {
        TxnResponse t = TxnResponse.newBuilder().setHeader(HEADER).addResponses(ResponseOp.newBuilder()
                .setResponseRange(RangeResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setRevision(17))))
                .build();
        assertEquals("{\"header\":{\"cluster_id\":18446744073709551615,\"member_id\":7,\"revision\":2,\"raft_term\":2},"
                + "\"responses\":[{\"Response\":{\"ResponseRange\":{\"header\":{\"revision\":17}}}}]}", GoJson.of(t));
    }

    @Test
    void escapesStringsLikeGo() {
        assertEquals("[\"a\\u003cb\\u003e\\u0026\\\"\\n\"]",
                new GoJson().beginArray().value("a<b>&\"\n").endArray().toString());
    }
}
