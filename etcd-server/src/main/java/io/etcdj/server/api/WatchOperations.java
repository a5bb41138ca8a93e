package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.Event;
import java.util.List;

/**
 * What watch streams and the lock and election recipes need of the member (owned here,
 * implemented by the server), after what etcd's store offers its gRPC watch server
 * (mvcc.WatchStream: Watch, Cancel, RequestProgress, and the responses on its channel).
 */
public interface WatchOperations {
    /**
     * Starts a watch: {@code listener} hears first {@link Listener#created} with the revision the
     * watch was registered at, then the selected events in revision order, from the selection's
     * start revision (0: the next write) on; or, if that revision was compacted, only
     * {@link Listener#compacted}, which ends the watch.
     */
    Watch watch(Selection selection, Listener listener);

    /**
     * Runs {@code onInterval} at every --experimental-watch-progress-notify-interval from now until
     * removed (by the same object).
     */
    void addProgressListener(Runnable onInterval);

    void removeProgressListener(Runnable onInterval);

    /**
     * A listener that refused events has room again: the watches it made fall behind may catch up
     * from history now rather than at the next retry.
     */
    void resumeCatchUp();

    /** A header at {@code revision} (0: no revision, as etcd's cancel responses). */
    ResponseHeader header(long revision);

    /** The current header. */
    ResponseHeader header();

    /** --max-request-bytes: watch responses larger than this are fragmented on request. */
    int maxRequestBytes();

    /**
     * What a watch selects: the key {@code key} alone ({@code end} empty), the range [key, end), or
     * every key from {@code key} on ({@code end} the single byte 0); from revision
     * {@code startRevision} (0 or less: the next write); all events but puts ({@code noPut}) or
     * deletions ({@code noDelete}); each event with the key's previous version if {@code prevKv}.
     */
    record Selection(ByteString key, ByteString end, long startRevision, boolean noPut, boolean noDelete,
                     boolean prevKv) {
    }

    /**
     * Where one watch's responses go. Called on the member's threads (the apply loop, the hub's
     * catch-up thread, the progress timer), so it must never block.
     */
    interface Listener {
        /** The watch is registered at store revision {@code revision}: heard before any event. */
        void created(long revision);

        /**
         * The watch's next events, reported at header revision {@code revision}; returns false if
         * they cannot be taken now: the watch then falls behind and gets them again from history.
         */
        boolean events(List<Event> events, long revision);

        /** The watch's start revision was compacted away: the watch has ended. */
        void compacted(long compactRevision);

        /** A progress notification asked for with {@link Watch#requestProgress}. */
        void progress();
    }

    /** A started watch. */
    interface Watch {
        /** Ends the watch. A catch-up from history already under way may still deliver once after this returns. */
        void cancel();

        /**
         * Has the listener hear {@link Listener#progress} now if the watch is caught up with the
         * store, and not at all if it is still catching up from history (as etcd's RequestProgress).
         */
        void requestProgress();
    }
}
