package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.server.metrics.Metrics;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's watch stream: many watchers, each with a stream-local ID (client-chosen or the
 * next free one from 0). Responses queue here and are written only while the transport is ready,
 * so a slow client fills its own queue; once the queue is full the member stops feeding it directly
 * and the watchers catch up from history later, and writes never wait for this stream.
 */
final class WatchStream implements StreamObserver<WatchRequest> {
    /** Event responses a stream may hold unsent before its watchers are made to catch up later. */
    private static final int MAX_PENDING = 128;
    /** ... and the bytes they may hold: with large values a few responses are already a lot of memory. */
    private static final long MAX_PENDING_BYTES = 16L << 20;
    static final String DUPLICATE_ID = "mvcc: duplicate watch ID provided on the WatchStream";

    /** etcd's cancel reason for a watch on keys the caller may not read: the client's error text. */
    static final String PERMISSION_DENIED = "rpc error: code = PermissionDenied desc = etcdserver: permission denied";

    private final WatchOperations server;
    private final AuthOperations auth;
    private final ServerCallStreamObserver<WatchResponse> out;
    private final Map<Long, StreamWatch> watchers = new ConcurrentHashMap<>();
    /** This stream's progress notifications, run at every progress-notify interval. */
    private final Runnable progressTick = this::progressNotify;
    private final ConcurrentLinkedQueue<WatchResponse> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingEvents = new AtomicInteger();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile boolean closed;
    private long nextId;
    private final Metrics metrics;

    WatchStream(WatchOperations server, AuthOperations auth, ServerCallStreamObserver<WatchResponse> out,
                Metrics metrics) {
        this.server = server;
        this.metrics = metrics;
        this.auth = auth;
        this.out = out;
        out.setOnReadyHandler(this::drain);
        out.setOnCancelHandler(this::close);
        server.addProgressListener(progressTick);
        metrics.watchStreams.inc();
    }

    @Override
    public void onNext(WatchRequest req) {
        switch (req.getRequestUnionCase()) {
            case CREATE_REQUEST -> create(req.getCreateRequest());
            case CANCEL_REQUEST -> cancel(req.getCancelRequest().getWatchId());
            case PROGRESS_REQUEST -> control(WatchResponse.newBuilder().setWatchId(-1));
            default -> {
            }
        }
    }

    private synchronized void create(WatchCreateRequest c) {
        if (!permitted(c)) {
            control(WatchResponse.newBuilder().setHeader(server.header()).setWatchId(c.getWatchId())
                    .setCreated(true).setCanceled(true).setCancelReason(PERMISSION_DENIED));
            return;
        }
        long id = c.getWatchId();
        if (id != 0 && watchers.containsKey(id)) {
            // etcd answers with the "invalid" watch ID -1, not the duplicate one
            control(WatchResponse.newBuilder().setWatchId(-1).setCreated(true).setCanceled(true).setCancelReason(DUPLICATE_ID));
            return;
        }
        if (id == 0) {
            while (watchers.containsKey(nextId)) {
                nextId++;
            }
            id = nextId++;
        }
        boolean noPut = c.getFiltersList().contains(WatchCreateRequest.FilterType.NOPUT);
        boolean noDelete = c.getFiltersList().contains(WatchCreateRequest.FilterType.NODELETE);
        StreamWatch w = new StreamWatch(id, c);
        watchers.put(id, w); // before the member can offer its first events
        w.watch = server.watch(new WatchOperations.Selection(c.getKey(), c.getRangeEnd(), c.getStartRevision(), noPut, noDelete,
                c.getPrevKv()), w);
        if (closed) {
            w.watch.cancel(); // the stream closed while the watch was being registered
        }
        drain();
    }

    /** Read permission on the watched range, checked when the watch is created (as etcd does). */
    private boolean permitted(WatchCreateRequest c) {
        try {
            auth.checkRead(Callers.current(), c.getKey().toByteArray(), c.getRangeEnd().toByteArray());
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void cancel(long id) {
        StreamWatch w = watchers.remove(id);
        if (w != null) {
            w.watch.cancel();
            control(WatchResponse.newBuilder().setWatchId(id).setCanceled(true));
        }
    }

    /**
     * Asks progress notifications for this stream's watchers that want them: those caught up get
     * one, except a watcher sent events since the last interval (etcd elides that one, as its
     * events already told the client how far it is).
     */
    private void progressNotify() {
        for (StreamWatch w : watchers.values()) {
            WatchOperations.Watch registered = w.watch;
            if (w.request.getProgressNotify() && registered != null) {
                if (w.quietSinceTick) {
                    registered.requestProgress();
                }
                w.quietSinceTick = true;
            }
        }
    }

    private void control(WatchResponse.Builder r) {
        queue.add(r.setHeader(server.header()).build());
        drain();
    }

    /** A control response whose header carries no revision (etcd's compaction cancel). */
    private void controlWithoutRevision(WatchResponse.Builder r) {
        queue.add(r.setHeader(server.header(0)).build());
        drain();
    }

    /** Queues a watcher's events unless the stream holds too many unsent already (then the watcher falls behind). */
    private boolean offer(long id, boolean fragment, List<Event> events, long revision) {
        if (pendingEvents.get() >= MAX_PENDING || pendingBytes.get() >= MAX_PENDING_BYTES) {
            return false;
        }
        for (WatchResponse r : split(id, events, revision, fragment)) {
            pendingEvents.incrementAndGet();
            pendingBytes.addAndGet(r.getSerializedSize());
            metrics.pendingEvents.inc(r.getEventsCount());
            queue.add(r);
        }
        drain();
        return true;
    }

    private List<WatchResponse> split(long id, List<Event> events, long revision, boolean fragment) {
        WatchResponse whole = WatchResponse.newBuilder().setHeader(server.header(revision))
                .setWatchId(id).addAllEvents(events).build();
        long limit = server.maxRequestBytes();
        if (!fragment || whole.getSerializedSize() <= limit || events.size() <= 1) {
            return List.of(whole);
        }
        List<WatchResponse> parts = new ArrayList<>();
        WatchResponse.Builder cur = WatchResponse.newBuilder().setHeader(server.header(revision)).setWatchId(id);
        for (Event e : events) {
            if (cur.getEventsCount() > 0 && cur.build().getSerializedSize() + e.getSerializedSize() > limit) {
                parts.add(cur.setFragment(true).build());
                cur = WatchResponse.newBuilder().setHeader(server.header(revision)).setWatchId(id);
            }
            cur.addEvents(e);
        }
        parts.add(cur.build());
        return parts;
    }

    private void drain() {
        while (draining.compareAndSet(false, true)) {
            boolean freed = false;
            try {
                while (!closed && out.isReady()) {
                    WatchResponse r = queue.poll();
                    if (r == null) {
                        break;
                    }
                    if (!r.getEventsList().isEmpty()) {
                        pendingEvents.decrementAndGet();
                        pendingBytes.addAndGet(-r.getSerializedSize());
                        metrics.pendingEvents.dec(r.getEventsCount());
                        metrics.events.inc(r.getEventsCount());
                        freed = true;
                    }
                    out.onNext(r);
                }
            } catch (RuntimeException e) {
                close();
            } finally {
                draining.set(false);
            }
            if (freed) {
                server.resumeCatchUp();
            }
            if (closed || queue.isEmpty() || !out.isReady()) {
                return;
            }
        }
    }

    @Override
    public void onError(Throwable t) {
        close();
    }

    @Override
    public void onCompleted() {
        // As etcd's watch server: the client closing its side ends nothing; its watchers keep
        // streaming until it cancels the call (the gateway half-closes once the HTTP body ends).
    }

    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        metrics.watchStreams.dec();
        queue.forEach(r -> metrics.pendingEvents.dec(r.getEventsCount()));
        server.removeProgressListener(progressTick);
        for (StreamWatch w : watchers.values()) {
            WatchOperations.Watch registered = w.watch;
            if (registered != null) { // else create() cancels it, seeing the stream closed
                registered.cancel();
            }
        }
        watchers.clear();
    }

    /** One watcher of this stream: its stream-local ID, the request that created it, and its watch on the member. */
    private final class StreamWatch implements WatchOperations.Listener {
        private final long id;
        private final WatchCreateRequest request;
        /** Set once the member registered it; null only while create() is registering it. */
        private volatile WatchOperations.Watch watch;
        /** No events were sent to it since the last progress interval (etcd's sws.progress[id]). */
        private volatile boolean quietSinceTick = true;

        StreamWatch(long id, WatchCreateRequest request) {
            this.id = id;
            this.request = request;
        }

        /**
         * The created response must reach the client before any event of this watcher, and its
         * header's revision is the one the watcher was registered at (a watch without a start
         * revision sees every change after it), as etcd reads it after registering.
         */
        @Override
        public void created(long revision) {
            queue.add(WatchResponse.newBuilder().setHeader(server.header(revision)).setWatchId(id).setCreated(true).build());
        }

        @Override
        public boolean events(List<Event> events, long revision) {
            if (closed || watchers.get(id) != this) {
                return true; // canceled: a catch-up already under way still delivers once
            }
            boolean taken = offer(id, request.getFragment(), events, revision);
            if (taken && !events.isEmpty()) {
                quietSinceTick = false;
            }
            return taken;
        }

        @Override
        public void compacted(long compactRevision) {
            if (watchers.remove(id, this)) {
                controlWithoutRevision(WatchResponse.newBuilder().setWatchId(id).setCanceled(true)
                        .setCompactRevision(compactRevision));
            }
        }

        @Override
        public void progress() {
            control(WatchResponse.newBuilder().setWatchId(id));
        }
    }
}
