package io.etcdj.server.slowlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.serverpb.InternalRaftRequest;
import org.junit.jupiter.api.Test;

/** Durations and requests written as etcd's logs write them. */
class GoFormatTest {


    @Test
    void requestsPrintAsGoCompactTextWithPutValuesReplacedByTheirSize() {
        PutRequest put = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("a\"b"))
                .setValue(ByteString.copyFromUtf8("secret")).setLease(5).build();
        assertEquals("key:\"a\\\"b\" value_size:6 lease:5 ", GoText.of(put));
        assertEquals("key:\"k\" range_end:\"\\000\" limit:10 ", GoText.of(RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("k")).setRangeEnd(ByteString.copyFrom(new byte[] {0})).setLimit(10).build()));
        TxnRequest txn = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setTarget(Compare.CompareTarget.MOD).setKey(ByteString.copyFromUtf8("k")))
                .addSuccess(RequestOp.newBuilder().setRequestPut(put)).build();
        assertEquals("compare:<target:MOD key:\"k\" > success:<request_put:<key:\"a\\\"b\" value_size:6 lease:5 > > ",
                GoText.of(txn));
    }

    @Test
    void appliedRequestsShowTheirHeaderAndNeverASecret() {
        InternalRaftRequest put = InternalRaftRequest.newBuilder().setId(7)
                .setPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFromUtf8("v"))).build();
        assertEquals("header:<ID:7 > put:<key:\"k\" value_size:1 >", ApplyText.of(put));
        InternalRaftRequest grant = InternalRaftRequest.newBuilder().setId(8)
                .setLeaseGrant(LeaseGrantRequest.newBuilder().setTTL(60).setID(0x1234)).build();
        assertEquals("header:<ID:8 > lease_grant:<ttl:60-second id:0000000000001234>", ApplyText.of(grant));
        InternalRaftRequest user = InternalRaftRequest.newBuilder().setId(9)
                .setUserAdd(AuthUserAddRequest.newBuilder().setName("alice").setPassword("pw").setHashedPassword("$2a$hash")).build();
        String text = ApplyText.of(user);
        assertEquals("header:<ID:9 > user_add:<name:\"alice\" >", text);
        assertFalse(text.contains("pw") || text.contains("hash"), text);
    }
}
