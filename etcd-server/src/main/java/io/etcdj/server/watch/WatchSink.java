package io.etcdj.server.watch;

import io.etcdj.api.mvccpb.Event;
import java.util.List;

/** Where one watcher's events go (for a watch stream: its bounded outbound queue). Never blocks. */
public interface WatchSink {
    /**
     * Queues the watcher's events, reported at header revision {@code revision}; returns false
     * if the queue is full (the hub then lets the watcher fall behind and catch up from history).
     */
    boolean offer(List<Event> events, long revision);

    /** The watcher's start revision was compacted: it is canceled with {@code compactRevision}. */
    void compacted(long compactRevision);
}
