package io.etcdj.server.watch;

import io.etcdj.api.mvccpb.Event;
import java.util.List;

/** Where a watcher's events go: a watch stream's bounded outbound queue. Never blocks. */
public interface WatchSink {
    /**
     * Queues events for the watcher, reported at header revision {@code revision}; returns false
     * if the queue is full (the hub then lets the watcher fall behind and catch up from history).
     */
    boolean offer(Watcher w, List<Event> events, long revision);

    /** The watcher's start revision was compacted: it is canceled with {@code compactRevision}. */
    void compacted(Watcher w, long compactRevision);
}
