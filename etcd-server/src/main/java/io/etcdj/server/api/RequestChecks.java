package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.error.EtcdError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The checks etcd makes on a request before proposing it, with etcd's errors. */
final class RequestChecks {
    private RequestChecks() {
    }

    static void range(RangeRequest r) {
        if (r.getKey().isEmpty()) {
            throw EtcdError.EMPTY_KEY.exception();
        }
        if (r.getSortOrder() == RangeRequest.SortOrder.UNRECOGNIZED
                || r.getSortTarget() == RangeRequest.SortTarget.UNRECOGNIZED) {
            throw EtcdError.INVALID_SORT_OPTION.exception();
        }
    }

    static void put(PutRequest r) {
        if (r.getKey().isEmpty()) {
            throw EtcdError.EMPTY_KEY.exception();
        }
        if (r.getIgnoreValue() && !r.getValue().isEmpty()) {
            throw EtcdError.VALUE_PROVIDED.exception();
        }
        if (r.getIgnoreLease() && r.getLease() != 0) {
            throw EtcdError.LEASE_PROVIDED.exception();
        }
    }

    static void deleteRange(DeleteRangeRequest r) {
        if (r.getKey().isEmpty()) {
            throw EtcdError.EMPTY_KEY.exception();
        }
    }

    static void txn(TxnRequest r, int maxTxnOps) {
        if (r.getCompareCount() > maxTxnOps || r.getSuccessCount() > maxTxnOps || r.getFailureCount() > maxTxnOps) {
            throw EtcdError.TOO_MANY_OPS.exception();
        }
        for (var c : r.getCompareList()) {
            if (c.getKey().isEmpty()) {
                throw EtcdError.EMPTY_KEY.exception();
            }
        }
        ops(r.getSuccessList(), maxTxnOps);
        ops(r.getFailureList(), maxTxnOps);
        new Writes().collect(r.getSuccessList());
        new Writes().collect(r.getFailureList());
    }

    private static void ops(List<RequestOp> ops, int maxTxnOps) {
        for (RequestOp op : ops) {
            switch (op.getRequestCase()) {
                case REQUEST_RANGE -> range(op.getRequestRange());
                case REQUEST_PUT -> put(op.getRequestPut());
                case REQUEST_DELETE_RANGE -> deleteRange(op.getRequestDeleteRange());
                case REQUEST_TXN -> txn(op.getRequestTxn(), maxTxnOps);
                default -> throw EtcdError.UNKNOWN_METHOD.exception();
            }
        }
    }

    /**
     * The keys a branch writes. A key may be written once per branch: two puts of it, or a put
     * inside a deleted range, is etcd's duplicate-key error. The two branches of a nested txn
     * exclude each other, so they may both put the same key.
     */
    private static final class Writes {
        final Set<ByteString> puts = new HashSet<>();
        final List<ByteString[]> deletes = new ArrayList<>();

        Writes collect(List<RequestOp> ops) {
            for (RequestOp op : ops) {
                if (op.hasRequestDeleteRange()) {
                    DeleteRangeRequest d = op.getRequestDeleteRange();
                    deletes.add(new ByteString[] {d.getKey(), d.getRangeEnd()});
                }
            }
            for (RequestOp op : ops) {
                if (!op.hasRequestTxn()) {
                    continue;
                }
                Writes then = new Writes().collect(op.getRequestTxn().getSuccessList());
                Writes otherwise = new Writes().collect(op.getRequestTxn().getFailureList());
                for (ByteString k : then.puts) {
                    addPut(k);
                }
                for (ByteString k : otherwise.puts) {
                    if (puts.contains(k) && !then.puts.contains(k)) {
                        throw EtcdError.DUPLICATE_KEY.exception();
                    }
                    if (deleted(k)) {
                        throw EtcdError.DUPLICATE_KEY.exception();
                    }
                    puts.add(k);
                }
                deletes.addAll(then.deletes);
                deletes.addAll(otherwise.deletes);
            }
            for (RequestOp op : ops) {
                if (op.hasRequestPut()) {
                    addPut(op.getRequestPut().getKey());
                }
            }
            return this;
        }

        private void addPut(ByteString k) {
            if (!puts.add(k) || deleted(k)) {
                throw EtcdError.DUPLICATE_KEY.exception();
            }
        }

        private boolean deleted(ByteString k) {
            var order = ByteString.unsignedLexicographicalComparator();
            for (ByteString[] d : deletes) {
                ByteString from = d[0];
                ByteString end = d[1];
                if (end.isEmpty()) {
                    if (from.equals(k)) {
                        return true;
                    }
                } else if (order.compare(k, from) >= 0
                        && ((end.size() == 1 && end.byteAt(0) == 0) || order.compare(k, end) < 0)) {
                    return true;
                }
            }
            return false;
        }
    }
}
