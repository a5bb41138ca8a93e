package io.etcdj.server.api;

import static io.etcdj.server.apply.StoreFixture.bs;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import org.junit.jupiter.api.Test;

class RequestChecksTest {
    private static RequestOp put(String k) {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(bs(k)).setValue(bs("v"))).build();
    }

    private static RequestOp del(String k, String end) {
        return RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(bs(k)).setRangeEnd(bs(end))).build();
    }

    private static EtcdError error(TxnRequest.Builder t, int maxOps) {
        return assertThrows(EtcdException.class, () -> RequestChecks.txn(t.build(), maxOps)).error();
    }

    @Test
    void duplicateKeysInOneBranch() {
        assertEquals(EtcdError.DUPLICATE_KEY, error(TxnRequest.newBuilder().addSuccess(put("a")).addSuccess(put("a")), 128));
        assertEquals(EtcdError.DUPLICATE_KEY, error(TxnRequest.newBuilder().addSuccess(del("a", "c")).addSuccess(put("b")), 128));
        assertDoesNotThrow(() -> RequestChecks.txn(TxnRequest.newBuilder().addSuccess(put("a")).addFailure(put("a")).build(), 128));
        assertDoesNotThrow(() -> RequestChecks.txn(TxnRequest.newBuilder().addSuccess(del("a", "c")).addSuccess(put("c")).build(), 128));
    }

    @Test
    void nestedTxnBranchesExcludeEachOtherButNotTheParent() {
        TxnRequest nested = TxnRequest.newBuilder().addSuccess(put("x")).addFailure(put("x")).build();
        assertDoesNotThrow(() -> RequestChecks.txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestTxn(nested)).build(), 128));
        assertEquals(EtcdError.DUPLICATE_KEY, error(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestTxn(nested)).addSuccess(put("x")), 128));
    }

    @Test
    void tooManyOpsAndEmptyKeys() {
        assertEquals(EtcdError.TOO_MANY_OPS, error(TxnRequest.newBuilder().addSuccess(put("a")).addSuccess(put("b")), 1));
        assertEquals(EtcdError.EMPTY_KEY, error(TxnRequest.newBuilder().addSuccess(put("")), 128));
        assertEquals(EtcdError.VALUE_PROVIDED, assertThrows(EtcdException.class, () -> RequestChecks.put(
                PutRequest.newBuilder().setKey(bs("k")).setValue(bs("v")).setIgnoreValue(true).build())).error());
        assertEquals(EtcdError.LEASE_PROVIDED, assertThrows(EtcdException.class, () -> RequestChecks.put(
                PutRequest.newBuilder().setKey(bs("k")).setLease(3).setIgnoreLease(true).build())).error());
    }
}
