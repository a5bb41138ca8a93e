package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All upstream watchers of the proxy, by watched range. A new client watcher joins an existing
 * upstream watcher of the same range when that one can serve it (see {@link Broadcast#accepts});
 * otherwise it gets a new one. The last client watcher leaving closes the upstream watcher.
 */
final class Broadcasts {
    private record Range(ByteString key, ByteString end) {
    }

    private final WatchGrpc.WatchStub upstream;
    private final Namespace ns;
    private final ProxyMetrics metrics;
    private final Map<Range, List<Broadcast>> byRange = new HashMap<>();
    private final Map<ClientWatcher, Broadcast> ofWatcher = new HashMap<>();

    Broadcasts(WatchGrpc.WatchStub upstream, Namespace ns, ProxyMetrics metrics) {
        this.upstream = upstream;
        this.ns = ns;
        this.metrics = metrics;
    }

    void add(ClientWatcher w) {
        Range range = new Range(w.request.getKey(), w.request.getRangeEnd());
        Broadcast joined = null;
        Broadcast created = null;
        synchronized (this) {
            for (Broadcast b : byRange.getOrDefault(range, List.of())) {
                if (b.join(w)) {
                    joined = b;
                    break;
                }
            }
            if (joined == null) {
                created = new Broadcast(this, upstream, ns, metrics, w);
                byRange.computeIfAbsent(range, r -> new ArrayList<>()).add(created);
                joined = created;
            }
            ofWatcher.put(w, joined);
        }
        if (created != null) {
            created.open();
        } else {
            metrics.watchersCoalescing(1);
        }
    }

    /** A client canceled its watcher: it gets its canceled response. */
    void cancel(ClientWatcher w) {
        Broadcast b = detach(w);
        if (b != null) {
            w.canceled(b.header(), 0, "");
        }
    }

    /** A client stream ended: its watchers leave silently. */
    void remove(ClientWatcher w) {
        detach(w);
    }

    private Broadcast detach(ClientWatcher w) {
        Broadcast b;
        boolean empty;
        synchronized (this) {
            b = ofWatcher.remove(w);
            if (b == null) {
                return null;
            }
            empty = b.leave(w);
            if (empty) {
                dropLocked(b);
            }
        }
        if (empty) {
            b.close();
        } else {
            metrics.watchersCoalescing(-1);
        }
        return b;
    }

    /** The upstream watcher was canceled by the cluster: it is gone with all its receivers. */
    synchronized void dropped(Broadcast b, List<ClientWatcher> receivers) {
        dropLocked(b);
        for (ClientWatcher w : receivers) {
            ofWatcher.remove(w);
        }
        if (receivers.size() > 1) {
            metrics.watchersCoalescing(-(receivers.size() - 1));
        }
    }

    private void dropLocked(Broadcast b) {
        Range range = new Range(b.request().getKey(), b.request().getRangeEnd());
        List<Broadcast> list = byRange.get(range);
        if (list != null) {
            list.remove(b);
            if (list.isEmpty()) {
                byRange.remove(range);
            }
        }
    }

    void closeAll() {
        List<Broadcast> all = new ArrayList<>();
        synchronized (this) {
            byRange.values().forEach(all::addAll);
            byRange.clear();
            ofWatcher.clear();
        }
        all.forEach(Broadcast::close);
    }
}
