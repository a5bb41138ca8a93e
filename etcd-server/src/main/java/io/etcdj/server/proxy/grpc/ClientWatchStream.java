package io.etcdj.server.proxy.grpc;

import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client's Watch stream through the proxy: assigns watch IDs, hands create and cancel
 * requests to the broadcasts, and serialises every response the broadcasts send it.
 */
final class ClientWatchStream implements StreamObserver<WatchRequest> {
    private final Broadcasts broadcasts;
    private final StreamObserver<WatchResponse> out;
    private final Map<Long, ClientWatcher> watchers = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    private boolean closed;

    ClientWatchStream(Broadcasts broadcasts, StreamObserver<WatchResponse> out) {
        this.broadcasts = broadcasts;
        this.out = out;
    }

    @Override
    public void onNext(WatchRequest r) {
        switch (r.getRequestUnionCase()) {
            case CREATE_REQUEST -> {
                ClientWatcher w = new ClientWatcher(this, nextId.getAndIncrement(), r.getCreateRequest());
                watchers.put(w.id, w);
                broadcasts.add(w);
            }
            case CANCEL_REQUEST -> {
                ClientWatcher w = watchers.get(r.getCancelRequest().getWatchId());
                if (w != null) {
                    broadcasts.cancel(w);
                }
            }
            default -> {
                // progress requests are not proxied (etcd's proxy does not either)
            }
        }
    }

    @Override
    public void onError(Throwable t) {
        synchronized (this) {
            closed = true;
        }
        end();
    }

    @Override
    public void onCompleted() {
        end();
        synchronized (this) {
            if (!closed) {
                closed = true;
                out.onCompleted();
            }
        }
    }

    private void end() {
        for (ClientWatcher w : watchers.values()) {
            broadcasts.remove(w);
        }
        watchers.clear();
    }

    void forget(long id) {
        watchers.remove(id);
    }

    synchronized void send(WatchResponse r) {
        if (closed) {
            return;
        }
        try {
            out.onNext(r);
        } catch (RuntimeException e) {
            // the client went away; its watchers are removed when the stream ends
            closed = true;
        }
    }
}
