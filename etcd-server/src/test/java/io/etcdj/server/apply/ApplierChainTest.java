package io.etcdj.server.apply;

import static io.etcdj.server.apply.StoreFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.error.EtcdError;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The alarms' stages of the applier chain decide at apply time, the same way on every member. */
class ApplierChainTest {
    @TempDir
    Path dir;
    private StoreFixture f;

    @BeforeEach
    void open() {
        f = new StoreFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private ApplyResult alarm(AlarmRequest.AlarmAction action, AlarmType type) {
        return f.apply(InternalRaftRequest.newBuilder().setAlarm(AlarmRequest.newBuilder().setAction(action)
                .setMemberID(1).setAlarm(type)));
    }

    private static InternalRaftRequest.Builder txn(RequestOp op) {
        return InternalRaftRequest.newBuilder().setTxn(TxnRequest.newBuilder().addSuccess(op));
    }

    @Test
    void noSpaceRefusesWhatGrowsTheDatabaseAndLetsTheOperatorRecover() {
        f.put("a", "1");
        alarm(AlarmRequest.AlarmAction.ACTIVATE, AlarmType.NOSPACE);
        assertEquals(EtcdError.NO_SPACE, f.put("b", "2").error().error());
        assertEquals(EtcdError.NO_SPACE, f.apply(InternalRaftRequest.newBuilder()
                .setLeaseGrant(LeaseGrantRequest.newBuilder().setID(5).setTTL(60))).error().error());
        assertEquals(EtcdError.NO_SPACE, f.apply(txn(RequestOp.newBuilder()
                .setRequestPut(PutRequest.newBuilder().setKey(bs("c")).setValue(bs("3"))).build())).error().error());
        // reads in a transaction, deletes and compaction are how space is freed
        assertNull(f.apply(txn(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(bs("a"))).build())).error());
        assertNull(f.apply(InternalRaftRequest.newBuilder().setDeleteRange(DeleteRangeRequest.newBuilder().setKey(bs("a")))).error());
        assertNull(f.apply(InternalRaftRequest.newBuilder().setCompaction(CompactionRequest.newBuilder().setRevision(2))).error());
        alarm(AlarmRequest.AlarmAction.DEACTIVATE, AlarmType.NOSPACE);
        assertNull(f.put("b", "2").error());
    }

    @Test
    void corruptRefusesEveryKeyValueRequestButNotAlarmChanges() {
        alarm(AlarmRequest.AlarmAction.ACTIVATE, AlarmType.CORRUPT);
        assertEquals(EtcdError.CORRUPT, f.put("a", "1").error().error());
        assertEquals(EtcdError.CORRUPT, f.apply(InternalRaftRequest.newBuilder()
                .setDeleteRange(DeleteRangeRequest.newBuilder().setKey(bs("a")))).error().error());
        assertNull(alarm(AlarmRequest.AlarmAction.DEACTIVATE, AlarmType.CORRUPT).error());
        assertNull(f.put("a", "1").error());
    }
}
