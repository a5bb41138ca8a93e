package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.server.watch.WatchSink;
import io.etcdj.server.watch.Watcher;
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
 * so a slow client fills its own queue; once the queue is full the hub stops feeding it directly
 * and the watchers catch up from history later, and writes never wait for this stream.
 */
final class WatchStream implements StreamObserver<WatchRequest>, WatchSink, ProgressNotifier.Listener {
    /** Event responses a stream may hold unsent before its watchers are made to catch up later. */
    private static final int MAX_PENDING = 128;
    /** ... and the bytes they may hold: with large values a few responses are already a lot of memory. */
    private static final long MAX_PENDING_BYTES = 16L << 20;
    static final String DUPLICATE_ID = "mvcc: duplicate watch ID provided on the WatchStream";

    /** etcd's cancel reason for a watch on keys the caller may not read: the client's error text. */
    static final String PERMISSION_DENIED = "rpc error: code = PermissionDenied desc = etcdserver: permission denied";

    private final WatchOperations server;
    private final AuthOperations auth;
    private final WatchHub hub;
    private final ServerCallStreamObserver<WatchResponse> out;
    private final Map<Long, Watcher> watchers = new ConcurrentHashMap<>();
    private final Map<Long, WatchCreateRequest> options = new ConcurrentHashMap<>();
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
        this.hub = server.hub();
        this.out = out;
        out.setOnReadyHandler(this::drain);
        out.setOnCancelHandler(this::close);
        server.progress().register(this);
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
        Watcher w = new Watcher(id, c.getKey().toByteArray(), c.getRangeEnd().toByteArray(), 0,
                noPut, noDelete, c.getPrevKv(), this);
        watchers.put(id, w);
        options.put(id, c);
        // The created response must reach the client before any event of this watcher, and its header's
        // revision is the one the watcher was registered at (a watch without a start revision sees every
        // change after it), as etcd reads it after registering.
        long createdId = id;
        hub.add(w, c.getStartRevision(), registeredAt -> queue.add(WatchResponse.newBuilder()
                .setHeader(server.header(registeredAt)).setWatchId(createdId).setCreated(true).build()));
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
        Watcher w = watchers.remove(id);
        options.remove(id);
        if (w != null) {
            hub.cancel(w);
            control(WatchResponse.newBuilder().setWatchId(id).setCanceled(true));
        }
    }

    /** Sends progress notifications to this stream's watchers that asked for them and are caught up. */
    @Override
    public void progressNotify() {
        for (Map.Entry<Long, Watcher> e : watchers.entrySet()) {
            WatchCreateRequest c = options.get(e.getKey());
            if (c != null && c.getProgressNotify() && hub.isSynced(e.getValue())) {
                control(WatchResponse.newBuilder().setWatchId(e.getKey()));
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

    @Override
    public boolean offer(Watcher w, List<Event> events, long revision) {
        if (closed || !watchers.containsKey(w.id())) {
            return true;
        }
        if (pendingEvents.get() >= MAX_PENDING || pendingBytes.get() >= MAX_PENDING_BYTES) {
            return false;
        }
        WatchCreateRequest c = options.get(w.id());
        boolean fragment = c != null && c.getFragment();
        for (WatchResponse r : split(w.id(), events, revision, fragment)) {
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

    @Override
    public void compacted(Watcher w, long compactRevision) {
        watchers.remove(w.id());
        options.remove(w.id());
        controlWithoutRevision(WatchResponse.newBuilder().setWatchId(w.id()).setCanceled(true).setCompactRevision(compactRevision));
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
                hub.kick();
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
        server.progress().unregister(this);
        for (Watcher w : watchers.values()) {
            hub.cancel(w);
        }
        watchers.clear();
    }
}
