package io.etcdj.server.apply;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.mvcc.ChangeEvent;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A store, lessor and applier on a real backend file in a temp dir, driven like the apply loop. */
public final class StoreFixture implements AutoCloseable {
    public final Path dir;
    public Backend backend;
    public MvccStore store;
    public Lessor lessor;
    public RequestApplier applier;
    public final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    public final List<ChangeEvent> events = new ArrayList<>();
    private long index;

    public StoreFixture(Path dir) {
        this.dir = dir;
        open();
    }

    public void open() {
        StateMachines sm = StateMachines.open(dir.resolve("db"), 64L << 20, nanos::get, 2);
        backend = sm.backend;
        store = sm.store;
        lessor = sm.lessor;
        applier = sm.applier;
        index = sm.consistentIndex();
    }

    public void reopen() {
        backend.close();
        open();
    }

    public ApplyResult apply(InternalRaftRequest.Builder r) {
        WriteBatch b = store.openWriteBatch();
        ApplyResult res = applier.apply(r.build(), b);
        events.addAll(b.commit(++index, 1));
        return res;
    }

    public static ByteString bs(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    public <T extends Message> T ok(InternalRaftRequest.Builder r, Class<T> type) {
        ApplyResult res = apply(r);
        if (res.error() != null) {
            throw res.error();
        }
        return type.cast(res.response());
    }

    public ApplyResult put(String k, String v) {
        return apply(InternalRaftRequest.newBuilder().setPut(PutRequest.newBuilder().setKey(bs(k)).setValue(bs(v))));
    }

    public ApplyResult put(PutRequest.Builder p) {
        return apply(InternalRaftRequest.newBuilder().setPut(p));
    }

    public ApplyResult del(DeleteRangeRequest.Builder d) {
        return apply(InternalRaftRequest.newBuilder().setDeleteRange(d));
    }

    public ApplyResult txn(TxnRequest.Builder t) {
        return apply(InternalRaftRequest.newBuilder().setTxn(t));
    }

    public ApplyResult compact(long rev) {
        return apply(InternalRaftRequest.newBuilder().setCompaction(CompactionRequest.newBuilder().setRevision(rev)));
    }

    public ApplyResult grant(long id, long ttl) {
        return apply(InternalRaftRequest.newBuilder().setLeaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(ttl)));
    }

    public ApplyResult revoke(long id) {
        return apply(InternalRaftRequest.newBuilder().setLeaseRevoke(LeaseRevokeRequest.newBuilder().setID(id)));
    }

    public RangeResponse range(RangeRequest.Builder r) {
        try (ReadView v = store.openRead()) {
            return v.range(r.build()).build();
        }
    }

    public List<String> keys(RangeRequest.Builder r) {
        return range(r).getKvsList().stream().map(kv -> kv.getKey().toStringUtf8()).toList();
    }

    @Override
    public void close() {
        backend.close();
    }
}
