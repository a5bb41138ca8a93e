package io.etcdj.server.proxy.grpc;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import java.util.List;

/**
 * One client's watcher (a c-watcher): what it asked for (filters, prev_kv, progress notify, start
 * revision) applied to the events its shared upstream watcher (the s-watcher) delivers.
 */
final class ClientWatcher {
    final ClientWatchStream stream;
    final long id;
    final WatchCreateRequest request;
    /** Events below this revision were asked not to be seen (start_revision) or were already sent. */
    private long nextRevision;

    ClientWatcher(ClientWatchStream stream, long id, WatchCreateRequest request) {
        this.stream = stream;
        this.id = id;
        this.request = request;
        this.nextRevision = request.getStartRevision();
    }

    void created(ResponseHeader header) {
        stream.send(WatchResponse.newBuilder().setHeader(header).setWatchId(id).setCreated(true).build());
    }

    void canceled(ResponseHeader header, long compactRevision, String reason) {
        stream.send(WatchResponse.newBuilder().setHeader(header).setWatchId(id).setCanceled(true)
                .setCompactRevision(compactRevision).setCancelReason(reason).build());
        stream.forget(id);
    }

    /** Delivers what this watcher wants of an upstream response; false if nothing was sent. */
    boolean deliver(WatchResponse upstream, List<Event> plainEvents) {
        if (plainEvents.isEmpty()) {
            // a progress notification: only for watchers that asked for them
            if (!request.getProgressNotify()) {
                return false;
            }
            stream.send(WatchResponse.newBuilder().setHeader(upstream.getHeader()).setWatchId(id).build());
            return true;
        }
        WatchResponse.Builder b = WatchResponse.newBuilder().setHeader(upstream.getHeader()).setWatchId(id);
        for (Event e : plainEvents) {
            if (e.getKv().getModRevision() < nextRevision || filtered(e)) {
                continue;
            }
            b.addEvents(request.getPrevKv() ? e : e.toBuilder().clearPrevKv().build());
        }
        if (b.getEventsCount() == 0) {
            return false;
        }
        nextRevision = b.getEvents(b.getEventsCount() - 1).getKv().getModRevision() + 1;
        stream.send(b.build());
        return true;
    }

    private boolean filtered(Event e) {
        for (WatchCreateRequest.FilterType f : request.getFiltersList()) {
            if (f == WatchCreateRequest.FilterType.NOPUT && e.getType() == Event.EventType.PUT) {
                return true;
            }
            if (f == WatchCreateRequest.FilterType.NODELETE && e.getType() == Event.EventType.DELETE) {
                return true;
            }
        }
        return false;
    }
}
