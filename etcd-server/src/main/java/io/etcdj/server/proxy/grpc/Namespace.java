package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;

/**
 * --namespace: every key a client sends gets the prefix, every key the cluster returns loses it,
 * so clients of the proxy see a keyspace of their own (etcd's clientv3/namespace). A range's end
 * of "\0" (all keys from here) becomes the end of the prefix's own range.
 */
final class Namespace {
    private final ByteString prefix;

    Namespace(String prefix) {
        this.prefix = ByteString.copyFromUtf8(prefix);
    }

    boolean isEmpty() {
        return prefix.isEmpty();
    }

    ByteString key(ByteString key) {
        return prefix.concat(key);
    }

    /** The upstream range end for a client's (key, end). */
    ByteString end(ByteString end) {
        if (end.isEmpty()) {
            return end;
        }
        if (end.size() == 1 && end.byteAt(0) == 0) {
            byte[] b = prefix.toByteArray();
            for (int i = b.length - 1; i >= 0; i--) {
                if (++b[i] != 0) {
                    return ByteString.copyFrom(b, 0, i + 1);
                }
            }
            // an all-0xff prefix (or none): to the end of the keyspace
            return ByteString.copyFrom(new byte[] {0});
        }
        return prefix.concat(end);
    }

    ByteString strip(ByteString key) {
        return key.startsWith(prefix) ? key.substring(prefix.size()) : key;
    }

    KeyValue strip(KeyValue kv) {
        return isEmpty() ? kv : kv.toBuilder().setKey(strip(kv.getKey())).build();
    }

    RangeRequest in(RangeRequest r) {
        return isEmpty() ? r : r.toBuilder().setKey(key(r.getKey())).setRangeEnd(end(r.getRangeEnd())).build();
    }

    PutRequest in(PutRequest r) {
        return isEmpty() ? r : r.toBuilder().setKey(key(r.getKey())).build();
    }

    DeleteRangeRequest in(DeleteRangeRequest r) {
        return isEmpty() ? r : r.toBuilder().setKey(key(r.getKey())).setRangeEnd(end(r.getRangeEnd())).build();
    }

    TxnRequest in(TxnRequest r) {
        if (isEmpty()) {
            return r;
        }
        TxnRequest.Builder b = r.toBuilder().clearCompare().clearSuccess().clearFailure();
        for (Compare c : r.getCompareList()) {
            b.addCompare(c.toBuilder().setKey(key(c.getKey())).setRangeEnd(end(c.getRangeEnd())));
        }
        for (RequestOp op : r.getSuccessList()) {
            b.addSuccess(in(op));
        }
        for (RequestOp op : r.getFailureList()) {
            b.addFailure(in(op));
        }
        return b.build();
    }

    private RequestOp in(RequestOp op) {
        return switch (op.getRequestCase()) {
            case REQUEST_RANGE -> RequestOp.newBuilder().setRequestRange(in(op.getRequestRange())).build();
            case REQUEST_PUT -> RequestOp.newBuilder().setRequestPut(in(op.getRequestPut())).build();
            case REQUEST_DELETE_RANGE -> RequestOp.newBuilder().setRequestDeleteRange(in(op.getRequestDeleteRange())).build();
            case REQUEST_TXN -> RequestOp.newBuilder().setRequestTxn(in(op.getRequestTxn())).build();
            default -> op;
        };
    }

    WatchCreateRequest in(WatchCreateRequest r) {
        return isEmpty() ? r : r.toBuilder().setKey(key(r.getKey())).setRangeEnd(end(r.getRangeEnd())).build();
    }

    RangeResponse out(RangeResponse r) {
        if (isEmpty()) {
            return r;
        }
        RangeResponse.Builder b = r.toBuilder().clearKvs();
        for (KeyValue kv : r.getKvsList()) {
            b.addKvs(strip(kv));
        }
        return b.build();
    }

    PutResponse out(PutResponse r) {
        return isEmpty() || !r.hasPrevKv() ? r : r.toBuilder().setPrevKv(strip(r.getPrevKv())).build();
    }

    DeleteRangeResponse out(DeleteRangeResponse r) {
        if (isEmpty()) {
            return r;
        }
        DeleteRangeResponse.Builder b = r.toBuilder().clearPrevKvs();
        for (KeyValue kv : r.getPrevKvsList()) {
            b.addPrevKvs(strip(kv));
        }
        return b.build();
    }

    TxnResponse out(TxnResponse r) {
        if (isEmpty()) {
            return r;
        }
        TxnResponse.Builder b = r.toBuilder().clearResponses();
        for (ResponseOp op : r.getResponsesList()) {
            b.addResponses(switch (op.getResponseCase()) {
                case RESPONSE_RANGE -> ResponseOp.newBuilder().setResponseRange(out(op.getResponseRange())).build();
                case RESPONSE_PUT -> ResponseOp.newBuilder().setResponsePut(out(op.getResponsePut())).build();
                case RESPONSE_DELETE_RANGE -> ResponseOp.newBuilder()
                        .setResponseDeleteRange(out(op.getResponseDeleteRange())).build();
                case RESPONSE_TXN -> ResponseOp.newBuilder().setResponseTxn(out(op.getResponseTxn())).build();
                default -> op;
            });
        }
        return b.build();
    }

    Event out(Event e) {
        if (isEmpty()) {
            return e;
        }
        Event.Builder b = e.toBuilder().setKv(strip(e.getKv()));
        if (e.hasPrevKv()) {
            b.setPrevKv(strip(e.getPrevKv()));
        }
        return b.build();
    }
}
