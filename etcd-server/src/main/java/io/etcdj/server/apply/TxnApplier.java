package io.etcdj.server.apply;

import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.mvcc.TxnWrite;
import io.etcdj.server.mvcc.WriteBatch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Applies a Txn as etcd does: every compare in the tree (nested txns included) is evaluated
 * against the state before the txn, then the puts of the chosen branches are checked, and only
 * then are the operations run, all at one main revision. A failed check writes nothing.
 */
final class TxnApplier {
    private final Applier applier;

    TxnApplier(Applier applier) {
        this.applier = applier;
    }

    ApplyResult apply(WriteBatch batch, TxnRequest r) {
        TxnWrite txn = batch.beginTxn();
        List<Boolean> path = new ArrayList<>();
        choose(txn, r, path);
        check(txn, r, new ArrayDeque<>(path));
        TxnResponse.Builder resp = execute(txn, r, new ArrayDeque<>(path));
        txn.end();
        return ApplyResult.ok(resp.build(), txn.readRevision());
    }

    /** Records, depth first, which branch every txn in the tree takes. */
    private void choose(TxnWrite txn, TxnRequest r, List<Boolean> path) {
        boolean ok = r.getCompareList().stream().allMatch(c -> holds(txn, c));
        path.add(ok);
        for (RequestOp op : ok ? r.getSuccessList() : r.getFailureList()) {
            if (op.hasRequestTxn()) {
                choose(txn, op.getRequestTxn(), path);
            }
        }
    }

    private void check(TxnWrite txn, TxnRequest r, Deque<Boolean> path) {
        boolean ok = path.pop();
        for (RequestOp op : ok ? r.getSuccessList() : r.getFailureList()) {
            if (op.hasRequestPut()) {
                applier.checkPut(txn, op.getRequestPut());
            } else if (op.hasRequestTxn()) {
                check(txn, op.getRequestTxn(), path);
            }
        }
    }

    private TxnResponse.Builder execute(TxnWrite txn, TxnRequest r, Deque<Boolean> path) {
        boolean ok = path.pop();
        TxnResponse.Builder resp = TxnResponse.newBuilder().setSucceeded(ok);
        for (RequestOp op : ok ? r.getSuccessList() : r.getFailureList()) {
            ResponseOp.Builder out = ResponseOp.newBuilder();
            // Each operation's header carries only the revision it saw or made at that point (a
            // read before the first write sees the old revision); a nested txn has no header.
            switch (op.getRequestCase()) {
                case REQUEST_RANGE -> {
                    long at = txn.readRevision();
                    out.setResponseRange(txn.range(op.getRequestRange()).setHeader(revisionOnly(at)));
                }
                case REQUEST_PUT -> out.setResponsePut(applier.put(txn, op.getRequestPut()).toBuilder()
                        .setHeader(revisionOnly(txn.revision())));
                case REQUEST_DELETE_RANGE -> {
                    var d = applier.deleteRange(txn, op.getRequestDeleteRange());
                    out.setResponseDeleteRange(d.toBuilder().setHeader(revisionOnly(txn.readRevision())));
                }
                case REQUEST_TXN -> out.setResponseTxn(execute(txn, op.getRequestTxn(), path)
                        .setHeader(ResponseHeader.getDefaultInstance()));
                default -> {
                }
            }
            resp.addResponses(out);
        }
        return resp;
    }

    private static ResponseHeader revisionOnly(long rev) {
        return ResponseHeader.newBuilder().setRevision(rev).build();
    }

    private static boolean holds(TxnWrite txn, Compare c) {
        byte[] key = c.getKey().toByteArray();
        List<KeyValue> kvs;
        if (c.getRangeEnd().isEmpty()) {
            KeyValue kv = txn.get(key);
            kvs = kv == null ? List.of() : List.of(kv);
        } else {
            kvs = txn.getRange(key, c.getRangeEnd().toByteArray());
        }
        if (kvs.isEmpty()) {
            // A missing key has no value to compare; its revisions, version and lease read as 0.
            return c.getTarget() != Compare.CompareTarget.VALUE && compare(KeyValue.getDefaultInstance(), c);
        }
        return kvs.stream().allMatch(kv -> compare(kv, c));
    }

    private static boolean compare(KeyValue kv, Compare c) {
        int cmp = switch (c.getTarget()) {
            case VERSION -> Long.compare(kv.getVersion(), c.getVersion());
            case CREATE -> Long.compare(kv.getCreateRevision(), c.getCreateRevision());
            case MOD -> Long.compare(kv.getModRevision(), c.getModRevision());
            case VALUE -> Arrays.compareUnsigned(kv.getValue().toByteArray(), c.getValue().toByteArray());
            case LEASE -> Long.compare(kv.getLease(), c.getLease());
            default -> 0;
        };
        return switch (c.getResult()) {
            case EQUAL -> cmp == 0;
            case NOT_EQUAL -> cmp != 0;
            case GREATER -> cmp > 0;
            case LESS -> cmp < 0;
            default -> false;
        };
    }
}
