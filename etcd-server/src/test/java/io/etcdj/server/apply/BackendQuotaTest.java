package io.etcdj.server.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackendQuotaTest {
    @TempDir
    Path dir;

    private static InternalRaftRequest put(int valueBytes) {
        return InternalRaftRequest.newBuilder().setPut(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                .setValue(ByteString.copyFrom(new byte[valueBytes]))).build();
    }

    @Test
    void writesFitWhileSizePlusCostStaysUnderTheQuota() {
        AtomicLong size = new AtomicLong(1000);
        BackendQuota q = new BackendQuota(size::get, 2000);
        assertTrue(q.available(put(100)));
        assertFalse(q.available(put(1000)));
        size.set(1990);
        assertFalse(q.available(InternalRaftRequest.newBuilder().setLeaseGrant(LeaseGrantRequest.newBuilder().setTTL(5)).build()));
        assertTrue(q.available(InternalRaftRequest.newBuilder().setDeleteRange(DeleteRangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8("k"))).build()), "deletes free space and always pass");
        InternalRaftRequest txn = InternalRaftRequest.newBuilder().setTxn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(put(10).getPut()))
                .addFailure(RequestOp.newBuilder().setRequestPut(put(500).getPut()))).build();
        assertEquals(BackendQuota.cost(put(500)), BackendQuota.cost(txn), "a txn costs its costlier branch");
    }

    @Test
    void aPutCostsEtcdsKeyValueSizePlusOverhead() {
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            PutRequest p = PutRequest.newBuilder().setKey(ByteString.copyFrom(new byte[random.nextInt(3) * random.nextInt(300)]))
                    .setValue(ByteString.copyFrom(new byte[random.nextInt(3) * random.nextInt(70_000)]))
                    .setLease(random.nextBoolean() ? 0 : random.nextLong()).build();
            long encoded = KeyValue.newBuilder().setKey(p.getKey()).setValue(p.getValue())
                    .setLease(p.getLease()).build().getSerializedSize();
            assertEquals(encoded + BackendQuota.KV_OVERHEAD, BackendQuota.cost(p), "key " + p.getKey().size() + " B, value "
                    + p.getValue().size() + " B, lease " + p.getLease());
        }
    }

    @Test
    void theBackendMapGrowsBeforeAWriteCouldFillIt() {
        try (Backend b = Backend.open(dir.resolve("db"), 1 << 20)) {
            long before = b.mapSize();
            b.ensureRoom(before);
            assertTrue(b.mapSize() > 2 * before, "map grown from " + before + " to " + b.mapSize());
            try (WriteTx tx = b.beginWrite()) {
                tx.put(Bucket.META, new byte[] {1}, new byte[] {2});
                tx.commit();
            }
        }
    }
}
