package io.etcdj.server.mvcc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.backend.Bucket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The writes of one request at one main revision: each change gets the next sub revision.
 * Reads inside it see its own writes, as etcd's write transactions do.
 */
public final class TxnWrite {
    private final WriteBatch batch;
    private final long rev;
    private final List<ChangeEvent> events = new ArrayList<>();
    private long sub;

    TxnWrite(WriteBatch batch, long rev) {
        this.batch = batch;
        this.rev = rev;
    }

    /** The main revision this transaction writes at. */
    public long revision() {
        return rev;
    }

    /** The revision reads inside the transaction see. */
    public long readRevision() {
        return events.isEmpty() ? rev - 1 : rev;
    }

    public boolean hasChanges() {
        return !events.isEmpty();
    }

    /** A Range inside the transaction: it sees the transaction's own writes. */
    public RangeResponse.Builder range(RangeRequest r) {
        return batch.rangeAt(r, readRevision());
    }

    /** The live key-value now (including this transaction's writes), or null. */
    public KeyValue get(byte[] key) {
        KeyHistory h = batch.index().get(key);
        KeyHistory.Change c = h == null ? null : h.visibleAt(readRevision());
        return c == null ? null : batch.valueAt(c.rev(), false);
    }

    /** Live keys in the interval now, in key order. */
    public List<KeyValue> getRange(byte[] key, byte[] end) {
        List<KeyValue> out = new ArrayList<>();
        for (Map.Entry<byte[], KeyHistory> e : batch.index().range(key, end)) {
            KeyHistory.Change c = e.getValue().visibleAt(readRevision());
            if (c != null) {
                out.add(batch.valueAt(c.rev(), false));
            }
        }
        return out;
    }

    /** What a put replaced: its value only when asked for (it costs a backend read), its lease always. */
    public record Replaced(KeyValue prevKv, long prevLease) {
        static final Replaced NOTHING = new Replaced(null, 0);
    }

    /**
     * Writes key=value with a lease. Returns what it replaced: the previous live value only if
     * {@code readPrevious}, the previous lease (0 if none) always.
     */
    public Replaced put(byte[] key, ByteString value, long lease, boolean readPrevious) {
        KeyHistory h = batch.index().getOrCreate(key);
        KeyHistory.Change prev = h.visibleAt(readRevision());
        Revision r = new Revision(rev, sub++);
        long create = prev == null ? rev : prev.createRevision();
        long version = prev == null ? 1 : prev.version() + 1;
        KeyValue kv = KeyValue.newBuilder()
                .setKey(ByteString.copyFrom(key))
                .setValue(value)
                .setCreateRevision(create)
                .setModRevision(rev)
                .setVersion(version)
                .setLease(lease)
                .build();
        Replaced replaced = prev == null ? Replaced.NOTHING
                : new Replaced(readPrevious ? batch.valueAt(prev.rev(), false) : null, prev.lease());
        batch.backendTx().put(Bucket.KEY, r.toBytes(false), kv.toByteArray());
        h.add(new KeyHistory.Change(r, create, version, lease, false));
        events.add(new ChangeEvent(Event.EventType.PUT, kv, prev == null ? null : prev.rev()));
        return replaced;
    }

    /** Deletes the live keys in the interval; returns their previous values in key order. */
    public List<KeyValue> deleteRange(byte[] key, byte[] end) {
        List<KeyValue> deleted = new ArrayList<>();
        long readRev = readRevision();
        List<Map.Entry<byte[], KeyHistory>> targets = new ArrayList<>();
        for (Map.Entry<byte[], KeyHistory> e : batch.index().range(key, end)) {
            if (e.getValue().visibleAt(readRev) != null) {
                targets.add(e);
            }
        }
        for (Map.Entry<byte[], KeyHistory> e : targets) {
            KeyHistory.Change prev = e.getValue().visibleAt(readRev);
            Revision r = new Revision(rev, sub++);
            KeyValue tomb = KeyValue.newBuilder().setKey(ByteString.copyFrom(e.getKey())).build();
            batch.backendTx().put(Bucket.KEY, r.toBytes(true), tomb.toByteArray());
            e.getValue().add(new KeyHistory.Change(r, 0, 0, 0, true));
            deleted.add(batch.valueAt(prev.rev(), false));
            events.add(new ChangeEvent(Event.EventType.DELETE,
                    tomb.toBuilder().setModRevision(rev).build(), prev.rev()));
        }
        return deleted;
    }

    /** Ends the transaction; the batch's revision moves on only if something changed. */
    public void end() {
        batch.finished(this, events);
    }
}
