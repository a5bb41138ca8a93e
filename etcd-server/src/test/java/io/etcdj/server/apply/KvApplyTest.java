package io.etcdj.server.apply;

import static io.etcdj.server.apply.StoreFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvApplyTest {
    @TempDir
    Path dir;
    StoreFixture f;

    @BeforeEach
    void open() {
        f = new StoreFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static RangeRequest.Builder get(String k) {
        return RangeRequest.newBuilder().setKey(bs(k));
    }

    @Test
    void freshStoreIsAtRevisionOneAndPutsCountUp() {
        assertEquals(1, f.store.currentRevision());
        assertEquals(2, f.put("foo", "bar").revision());
        assertEquals(3, f.put("foo", "baz").revision());
        KeyValue kv = f.range(get("foo")).getKvs(0);
        assertEquals("baz", kv.getValue().toStringUtf8());
        assertEquals(2, kv.getCreateRevision());
        assertEquals(3, kv.getModRevision());
        assertEquals(2, kv.getVersion());
        assertEquals("bar", f.range(get("foo").setRevision(2)).getKvs(0).getValue().toStringUtf8());
    }

    @Test
    void rangeOptions() {
        for (String k : List.of("a", "b", "c", "d")) {
            f.put(k, "v-" + k);
        }
        f.put("b", "zz");
        assertEquals(List.of("a", "b", "c", "d"), f.keys(RangeRequest.newBuilder().setKey(bs("\0")).setRangeEnd(bs("\0"))));
        assertEquals(List.of("b", "c", "d"), f.keys(RangeRequest.newBuilder().setKey(bs("b")).setRangeEnd(bs("\0"))));
        RangeResponse limited = f.range(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setLimit(2));
        assertEquals(2, limited.getKvsCount());
        assertTrue(limited.getMore());
        assertEquals(4, limited.getCount());
        RangeResponse exact = f.range(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setLimit(4));
        assertFalse(exact.getMore());
        assertEquals(List.of("d", "c", "b", "a"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z"))
                .setSortOrder(RangeRequest.SortOrder.DESCEND)));
        // Sorting by a target other than KEY with NONE order sorts ascending, as etcd.
        assertEquals(List.of("a", "c", "d", "b"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z"))
                .setSortTarget(RangeRequest.SortTarget.MOD)));
        assertEquals(List.of("b", "d", "c", "a"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z"))
                .setSortTarget(RangeRequest.SortTarget.VALUE).setSortOrder(RangeRequest.SortOrder.DESCEND)));
        assertEquals(List.of("b"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z"))
                .setSortTarget(RangeRequest.SortTarget.VERSION).setSortOrder(RangeRequest.SortOrder.DESCEND).setLimit(1)));
        RangeResponse keysOnly = f.range(get("a").setKeysOnly(true));
        assertTrue(keysOnly.getKvs(0).getValue().isEmpty());
        assertEquals(2, keysOnly.getKvs(0).getModRevision());
        RangeResponse countOnly = f.range(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setCountOnly(true));
        assertEquals(0, countOnly.getKvsCount());
        assertEquals(4, countOnly.getCount());
        RangeResponse minMod = f.range(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setMinModRevision(4));
        assertEquals(List.of("b", "c", "d"), minMod.getKvsList().stream().map(kv -> kv.getKey().toStringUtf8()).toList());
        assertEquals(4, minMod.getCount());
        assertEquals(List.of("a", "b"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setMaxCreateRevision(3)));
        assertEquals(List.of("c", "d"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setMinCreateRevision(4)));
        assertEquals(List.of("a", "b"), f.keys(RangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("z")).setRevision(3)));
    }

    @Test
    void futureAndCompactedRevisions() {
        f.put("a", "1");
        f.put("a", "2");
        f.put("a", "3");
        EtcdException future = assertThrows(EtcdException.class, () -> f.range(get("a").setRevision(99)));
        assertEquals(EtcdError.FUTURE_REV, future.error());
        assertNull(f.compact(3).error());
        assertEquals(EtcdError.COMPACTED, assertThrows(EtcdException.class, () -> f.range(get("a").setRevision(2))).error());
        assertEquals("2", f.range(get("a").setRevision(3)).getKvs(0).getValue().toStringUtf8());
        assertEquals(EtcdError.COMPACTED, f.compact(3).error().error());
        assertEquals(EtcdError.FUTURE_REV, f.compact(100).error().error());
    }

    @Test
    void putFlags() {
        assertEquals(EtcdError.KEY_NOT_FOUND, f.put(PutRequest.newBuilder().setKey(bs("x")).setIgnoreValue(true)).error().error());
        assertEquals(EtcdError.LEASE_NOT_FOUND,
                f.put(PutRequest.newBuilder().setKey(bs("x")).setValue(bs("v")).setLease(7)).error().error());
        f.grant(7, 100);
        f.put(PutRequest.newBuilder().setKey(bs("x")).setValue(bs("v1")).setLease(7));
        ApplyResult r = f.put(PutRequest.newBuilder().setKey(bs("x")).setValue(bs("v2")).setIgnoreLease(true).setPrevKv(true));
        assertEquals("v1", ((PutResponse) r.response()).getPrevKv().getValue().toStringUtf8());
        assertEquals(7, f.range(get("x")).getKvs(0).getLease());
        f.put(PutRequest.newBuilder().setKey(bs("x")).setIgnoreValue(true));
        KeyValue kv = f.range(get("x")).getKvs(0);
        assertEquals("v2", kv.getValue().toStringUtf8());
        assertEquals(0, kv.getLease());
        assertEquals(3, kv.getVersion());
    }

    @Test
    void deleteRangeWithPrevKvAndNoOpDelete() {
        f.put("a", "1");
        f.put("ab", "2");
        f.put("b", "3");
        long before = f.store.currentRevision();
        ApplyResult none = f.del(DeleteRangeRequest.newBuilder().setKey(bs("zzz")));
        assertEquals(0, ((DeleteRangeResponse) none.response()).getDeleted());
        assertEquals(before, f.store.currentRevision());
        ApplyResult r = f.del(DeleteRangeRequest.newBuilder().setKey(bs("a")).setRangeEnd(bs("b")).setPrevKv(true));
        DeleteRangeResponse d = (DeleteRangeResponse) r.response();
        assertEquals(2, d.getDeleted());
        assertEquals(List.of("a", "ab"), d.getPrevKvsList().stream().map(kv -> kv.getKey().toStringUtf8()).toList());
        assertEquals(before + 1, f.store.currentRevision());
        assertEquals(List.of("b"), f.keys(RangeRequest.newBuilder().setKey(bs("\0")).setRangeEnd(bs("\0"))));
        f.put("a", "again");
        KeyValue kv = f.range(get("a")).getKvs(0);
        assertEquals(1, kv.getVersion());
        assertEquals(kv.getModRevision(), kv.getCreateRevision());
        List<Event> evs = f.events.stream().filter(e -> e.revision() == before + 1)
                .map(e -> Event.newBuilder().setType(e.type()).setKv(e.kv()).build()).toList();
        assertEquals(2, evs.size());
        assertEquals(Event.EventType.DELETE, evs.get(0).getType());
    }

    @Test
    void txnComparesBranchesAndNestedTxn() {
        f.put("k", "v");
        TxnRequest.Builder t = TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(bs("k")).setTarget(Compare.CompareTarget.VALUE)
                        .setResult(Compare.CompareResult.EQUAL).setValue(bs("v")))
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs("k2")).setValue(bs("x"))))
                .addSuccess(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(bs("k2"))))
                .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder()
                        .addCompare(Compare.newBuilder().setKey(bs("missing")).setTarget(Compare.CompareTarget.VERSION)
                                .setResult(Compare.CompareResult.EQUAL).setVersion(0))
                        .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs("k3")).setValue(bs("y"))))))
                .addFailure(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs("k4")).setValue(bs("z"))));
        ApplyResult r = f.txn(t);
        TxnResponse resp = (TxnResponse) r.response();
        assertTrue(resp.getSucceeded());
        assertEquals(3, r.revision());
        assertEquals("x", resp.getResponses(1).getResponseRange().getKvs(0).getValue().toStringUtf8());
        assertEquals(3, resp.getResponses(0).getResponsePut().getHeader().getRevision());
        assertTrue(resp.getResponses(2).getResponseTxn().getSucceeded());
        assertEquals(List.of("k", "k2", "k3"), f.keys(RangeRequest.newBuilder().setKey(bs("\0")).setRangeEnd(bs("\0"))));
        // k2 and k3 share revision 3 with sub revisions 0 and 1.
        assertEquals(3, f.range(get("k3")).getKvs(0).getModRevision());

        TxnResponse failed = (TxnResponse) f.txn(TxnRequest.newBuilder()
                .addCompare(Compare.newBuilder().setKey(bs("nokey")).setTarget(Compare.CompareTarget.VALUE)
                        .setResult(Compare.CompareResult.NOT_EQUAL).setValue(bs("v")))
                .addFailure(RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(bs("k"))))).response();
        assertFalse(failed.getSucceeded());
        assertEquals(3, f.store.currentRevision());
    }

    @Test
    void txnWithBadLeaseWritesNothing() {
        ApplyResult r = f.txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs("a")).setValue(bs("1"))))
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs("b")).setValue(bs("2")).setLease(42))));
        assertEquals(EtcdError.LEASE_NOT_FOUND, r.error().error());
        assertEquals(1, f.store.currentRevision());
        assertEquals(0, f.range(get("a")).getCount());
    }

    @Test
    void everythingSurvivesReopen() {
        f.put("a", "1");
        f.put("a", "2");
        f.del(DeleteRangeRequest.newBuilder().setKey(bs("a")));
        f.put("b", "3");
        f.compact(3);
        f.grant(9, 60);
        f.put(PutRequest.newBuilder().setKey(bs("leased")).setValue(bs("v")).setLease(9));
        long rev = f.store.currentRevision();
        assertEquals(0, f.range(get("a")).getCount());
        f.reopen();
        assertEquals(rev, f.store.currentRevision());
        assertEquals(3, f.store.compactRevision());
        assertEquals(0, f.range(get("a")).getCount());
        assertEquals("3", f.range(get("b")).getKvs(0).getValue().toStringUtf8());
        assertTrue(f.lessor.exists(9));
        f.revoke(9);
        assertEquals(0, f.range(get("leased")).getCount());
    }

    @Test
    void revokeDeletesAttachedKeysAtOneRevision() {
        f.grant(5, 30);
        f.put(PutRequest.newBuilder().setKey(bs("l1")).setValue(bs("v")).setLease(5));
        f.put(PutRequest.newBuilder().setKey(bs("l2")).setValue(bs("v")).setLease(5));
        f.put(PutRequest.newBuilder().setKey(bs("l2")).setValue(bs("other")));
        ApplyResult r = f.revoke(5);
        assertNull(r.error());
        assertEquals(0, f.range(get("l1")).getCount());
        assertEquals("other", f.range(get("l2")).getKvs(0).getValue().toStringUtf8());
        assertEquals(EtcdError.LEASE_NOT_FOUND, f.revoke(5).error().error());
    }
}
