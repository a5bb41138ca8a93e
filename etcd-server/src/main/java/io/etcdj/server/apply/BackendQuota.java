package io.etcdj.server.apply;

import com.google.protobuf.CodedOutputStream;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * etcd's backend quota (--quota-backend-bytes): a request that would grow the database is
 * available only while the backend's size plus the request's estimated cost stays under the
 * quota. The size is that of the pages holding data ({@code Backend.recentSizeInUse}): etcd counts
 * its bbolt file, whose free pages are few, while an LMDB file keeps more freed pages for reuse (a
 * fresh member's 19 pages hold 7 of data), so its size would refuse writes etcd accepts under a
 * small quota. The cost is etcd's: a put costs its key-value record plus a fixed overhead for the
 * index and the page, a lease grant a small fixed amount, a transaction its costlier branch.
 */
public final class BackendQuota {
    /** etcd's per-key overhead estimate (index entry, revision key, page slack). */
    static final int KV_OVERHEAD = 256;
    /** etcd's estimate for a lease record. */
    static final int LEASE_OVERHEAD = 64;

    private final LongSupplier backendSize;
    private final long quotaBytes;

    public BackendQuota(LongSupplier backendSize, long quotaBytes) {
        this.backendSize = backendSize;
        this.quotaBytes = quotaBytes;
    }

    public long quotaBytes() {
        return quotaBytes;
    }

    /** Whether the request fits: requests that do not grow the database always do. */
    public boolean available(InternalRaftRequest r) {
        long cost = cost(r);
        return cost == 0 || backendSize.getAsLong() + cost < quotaBytes;
    }

    static long cost(InternalRaftRequest r) {
        return switch (r.getRequestCase()) {
            case PUT -> cost(r.getPut());
            case TXN -> cost(r.getTxn());
            case LEASE_GRANT -> LEASE_OVERHEAD;
            default -> 0;
        };
    }

    /** etcd's cost of a put: the size of a KeyValue holding its key, value and lease, plus overhead. */
    static long cost(PutRequest p) {
        return keyValueSize(p) + KV_OVERHEAD;
    }

    /** The encoded size of {@code KeyValue{key, value, lease}}, computed without building one. */
    private static int keyValueSize(PutRequest p) {
        int size = 0;
        if (!p.getKey().isEmpty()) {
            size += CodedOutputStream.computeBytesSize(KeyValue.KEY_FIELD_NUMBER, p.getKey());
        }
        if (!p.getValue().isEmpty()) {
            size += CodedOutputStream.computeBytesSize(KeyValue.VALUE_FIELD_NUMBER, p.getValue());
        }
        if (p.getLease() != 0) {
            size += CodedOutputStream.computeInt64Size(KeyValue.LEASE_FIELD_NUMBER, p.getLease());
        }
        return size;
    }

    private static long cost(TxnRequest t) {
        return Math.max(cost(t.getSuccessList()), cost(t.getFailureList()));
    }

    private static long cost(List<RequestOp> ops) {
        long sum = 0;
        for (RequestOp op : ops) {
            sum += switch (op.getRequestCase()) {
                case REQUEST_PUT -> cost(op.getRequestPut());
                case REQUEST_TXN -> cost(op.getRequestTxn());
                default -> 0;
            };
        }
        return sum;
    }
}
