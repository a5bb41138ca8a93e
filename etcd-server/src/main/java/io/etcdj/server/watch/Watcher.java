package io.etcdj.server.watch;

import io.etcdj.api.mvccpb.Event;
import io.etcdj.server.mvcc.ChangeEvent;
import java.util.Arrays;

/** One watch: what it selects, where it has got to, and where its events go. */
public final class Watcher {
    private final byte[] key;
    private final byte[] end;
    private final boolean noPut;
    private final boolean noDelete;
    private final boolean prevKv;
    private final WatchSink sink;
    /** The next revision this watcher must receive. Guarded by the hub. */
    long nextRev;
    boolean synced;
    boolean canceled;

    public Watcher(byte[] key, byte[] end, long startRev, boolean noPut, boolean noDelete,
                   boolean prevKv, WatchSink sink) {
        this.key = key;
        this.end = end == null || end.length == 0 ? null : end;
        this.nextRev = startRev;
        this.noPut = noPut;
        this.noDelete = noDelete;
        this.prevKv = prevKv;
        this.sink = sink;
    }

    public boolean wantsPrevKv() {
        return prevKv;
    }

    WatchSink sink() {
        return sink;
    }

    boolean matches(ChangeEvent e) {
        if (e.revision() < nextRev) {
            return false;
        }
        boolean put = e.type() == Event.EventType.PUT;
        if ((put && noPut) || (!put && noDelete)) {
            return false;
        }
        byte[] k = e.kv().getKey().toByteArray();
        if (end == null) {
            return Arrays.equals(k, key);
        }
        if (Arrays.compareUnsigned(k, key) < 0) {
            return false;
        }
        return (end.length == 1 && end[0] == 0) || Arrays.compareUnsigned(k, end) < 0;
    }
}
