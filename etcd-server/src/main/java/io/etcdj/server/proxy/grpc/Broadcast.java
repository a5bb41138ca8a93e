package io.etcdj.server.proxy.grpc;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.grpc.Context;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One upstream watcher (an s-watcher) and the client watchers it serves. It always asks the
 * cluster for previous values and progress notifications, and each client watcher drops what it
 * did not ask for. If the upstream stream fails (the member died), it watches again from the
 * revision after the last one delivered, on whatever endpoint the channel now uses.
 */
final class Broadcast {
    private static final ScheduledExecutorService RETRY = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "grpc-proxy-watch-retry");
        t.setDaemon(true);
        return t;
    });

    private final Broadcasts owner;
    private final WatchGrpc.WatchStub upstream;
    private final Namespace ns;
    private final ProxyMetrics metrics;
    private final WatchCreateRequest request;
    private final Set<ClientWatcher> receivers = new LinkedHashSet<>();
    /** Receivers still waiting for the created response. */
    private final Set<ClientWatcher> pending = new LinkedHashSet<>();
    private ResponseHeader header = ResponseHeader.getDefaultInstance();
    private boolean created;
    /** The revision after the last event delivered; 0 until the upstream watcher exists. */
    private long nextRevision;
    private boolean closed;
    private ClientCallStreamObserver<WatchRequest> call;

    Broadcast(Broadcasts owner, WatchGrpc.WatchStub upstream, Namespace ns, ProxyMetrics metrics, ClientWatcher first) {
        this.owner = owner;
        this.upstream = upstream;
        this.ns = ns;
        this.metrics = metrics;
        this.request = first.request;
        this.nextRevision = first.request.getStartRevision();
        receivers.add(first);
        pending.add(first);
    }

    WatchCreateRequest request() {
        return request;
    }

    synchronized ResponseHeader header() {
        return header;
    }

    /**
     * Takes {@code w} if it can see every event it asked for from here: a watcher from "now"
     * joins any upstream watcher; one with a start revision only a watcher not yet past it.
     */
    synchronized boolean join(ClientWatcher w) {
        if (closed) {
            return false;
        }
        long wants = w.request.getStartRevision();
        if (wants != 0 && (nextRevision == 0 || nextRevision > wants)) {
            return false;
        }
        receivers.add(w);
        if (created) {
            w.created(header);
        } else {
            pending.add(w);
        }
        return true;
    }

    /** Removes {@code w}; true if no receiver is left. */
    synchronized boolean leave(ClientWatcher w) {
        receivers.remove(w);
        pending.remove(w);
        return receivers.isEmpty();
    }

    /** Opens the upstream watch (again), from the next revision not yet delivered. */
    void open() {
        WatchCreateRequest.Builder create;
        synchronized (this) {
            if (closed) {
                return;
            }
            create = ns.in(request).toBuilder().clearFilters().setPrevKv(true).setProgressNotify(true)
                    .setStartRevision(nextRevision).setWatchId(0);
        }
        // a detached context: the upstream watcher outlives the client call that created it
        Context.ROOT.run(() -> upstream.watch(new ClientResponseObserver<WatchRequest, WatchResponse>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<WatchRequest> requestStream) {
                synchronized (Broadcast.this) {
                    call = requestStream;
                }
            }

            @Override
            public void onNext(WatchResponse r) {
                receive(r);
            }

            @Override
            public void onError(Throwable t) {
                retry();
            }

            @Override
            public void onCompleted() {
                retry();
            }
        }).onNext(WatchRequest.newBuilder().setCreateRequest(create).build()));
    }

    private void retry() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        RETRY.schedule(this::open, 500, TimeUnit.MILLISECONDS);
    }

    private void receive(WatchResponse r) {
        List<ClientWatcher> targets;
        List<ClientWatcher> newlyCreated = List.of();
        synchronized (this) {
            if (closed) {
                return;
            }
            header = r.getHeader();
            if (r.getCanceled()) {
                closed = true;
                targets = new ArrayList<>(receivers);
                receivers.clear();
                pending.clear();
            } else if (r.getCreated()) {
                if (!created) {
                    created = true;
                    newlyCreated = new ArrayList<>(pending);
                    pending.clear();
                }
                if (nextRevision == 0) {
                    nextRevision = r.getHeader().getRevision() + 1;
                }
                targets = List.of();
            } else {
                targets = new ArrayList<>(receivers);
                if (r.getEventsCount() > 0) {
                    nextRevision = r.getEvents(r.getEventsCount() - 1).getKv().getModRevision() + 1;
                }
            }
        }
        if (r.getCanceled()) {
            owner.dropped(this, targets);
            for (ClientWatcher w : targets) {
                w.canceled(r.getHeader(), r.getCompactRevision(), r.getCancelReason());
            }
            return;
        }
        for (ClientWatcher w : newlyCreated) {
            w.created(r.getHeader());
        }
        if (r.getCreated()) {
            return;
        }
        List<Event> plain = new ArrayList<>(r.getEventsCount());
        for (Event e : r.getEventsList()) {
            plain.add(ns.out(e));
        }
        int delivered = 0;
        for (ClientWatcher w : targets) {
            if (w.deliver(r, plain)) {
                delivered++;
            }
        }
        if (!plain.isEmpty() && delivered > 1) {
            metrics.eventsCoalesced(delivered - 1);
        }
    }

    void close() {
        ClientCallStreamObserver<WatchRequest> c;
        synchronized (this) {
            closed = true;
            c = call;
        }
        if (c != null) {
            c.cancel("no watchers left", null);
        }
    }
}
