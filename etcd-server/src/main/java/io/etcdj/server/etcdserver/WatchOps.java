package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.server.api.WatchOperations;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.server.watch.WatchSink;
import io.etcdj.server.watch.Watcher;
import java.util.List;

/** What watch streams and the recipes use of the member: watches on its watchable store, progress ticks, headers. */
final class WatchOps implements WatchOperations {
    private final WatchHub hub;
    private final ProgressNotifier progress;
    private final Headers headers;
    private final int maxRequestBytes;

    WatchOps(WatchHub hub, ProgressNotifier progress, Headers headers, int maxRequestBytes) {
        this.hub = hub;
        this.progress = progress;
        this.headers = headers;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public Watch watch(Selection selection, Listener listener) {
        HubWatch w = new HubWatch(hub, selection, listener);
        hub.add(w.watcher, selection.startRevision(), listener::created);
        return w;
    }

    @Override
    public void addProgressListener(Runnable onInterval) {
        progress.register(onInterval);
    }

    @Override
    public void removeProgressListener(Runnable onInterval) {
        progress.unregister(onInterval);
    }

    @Override
    public void resumeCatchUp() {
        hub.kick();
    }

    @Override
    public ResponseHeader header(long revision) {
        return headers.header(revision);
    }

    @Override
    public ResponseHeader header() {
        return headers.header();
    }

    @Override
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /** One watch on the hub: the hub's sink for its watcher, passing straight on to the listener, and its handle. */
    private static final class HubWatch implements WatchSink, Watch {
        private final WatchHub hub;
        private final Listener listener;
        private final Watcher watcher;

        HubWatch(WatchHub hub, Selection s, Listener listener) {
            this.hub = hub;
            this.listener = listener;
            this.watcher = new Watcher(s.key().toByteArray(), s.end().toByteArray(), s.startRevision(), s.noPut(), s.noDelete(),
                    s.prevKv(), this);
        }

        @Override
        public boolean offer(List<Event> events, long revision) {
            return listener.events(events, revision);
        }

        @Override
        public void compacted(long compactRevision) {
            listener.compacted(compactRevision);
        }

        @Override
        public void cancel() {
            hub.cancel(watcher);
        }

        @Override
        public void requestProgress() {
            if (hub.isSynced(watcher)) {
                listener.progress();
            }
        }
    }
}
