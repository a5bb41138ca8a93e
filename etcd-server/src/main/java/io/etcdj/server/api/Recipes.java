package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.mvccpb.Event;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The server side of etcd's concurrency recipes, shared by the lock and election services. */
final class Recipes {
    private Recipes() {
    }

    /** Completes with a header revision once no key under prefix has create revision <= maxRev. */
    static CompletableFuture<Long> waitDeletes(CallerBound kv, WatchOperations watches, ByteString prefix,
                                                long maxRev) {
        RangeRequest older = RangeRequest.newBuilder().setKey(prefix).setRangeEnd(prefixEnd(prefix))
                .setMaxCreateRevision(maxRev).setSortOrder(RangeRequest.SortOrder.DESCEND)
                .setSortTarget(RangeRequest.SortTarget.CREATE).setLimit(1).build();
        return kv.range(older).thenCompose(rr -> {
            if (rr.getKvsCount() == 0) {
                return CompletableFuture.completedFuture(rr.getHeader().getRevision());
            }
            return deletion(watches, rr.getKvs(0).getKey(), rr.getHeader().getRevision() + 1)
                    .thenCompose(x -> waitDeletes(kv, watches, prefix, maxRev));
        });
    }

    /** Completes when key is deleted at or after revision {@code from}. */
    static CompletableFuture<Void> deletion(WatchOperations watches, ByteString key, long from) {
        return change(watches, key, null, from, true);
    }

    /**
     * Completes at the first event on [key, end) (end null: key alone) at or after revision
     * {@code from}; with {@code deletesOnly}, at the first deletion. Canceling the future removes
     * the watch.
     */
    static CompletableFuture<Void> change(WatchOperations watches, ByteString key, ByteString end, long from,
                                          boolean deletesOnly) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        WatchOperations.Listener listener = new WatchOperations.Listener() {
            @Override
            public void created(long revision) {
                // nothing to answer: the caller waits for the change alone
            }

            @Override
            public boolean events(List<Event> events, long revision) {
                for (Event e : events) {
                    if (!deletesOnly || e.getType() == Event.EventType.DELETE) {
                        done.complete(null);
                    }
                }
                return true;
            }

            @Override
            public void compacted(long compactRevision) {
                done.complete(null); // re-read: the range decides whether to wait again
            }

            @Override
            public void progress() {
                // never asked for
            }
        };
        WatchOperations.Watch watch = watches.watch(new WatchOperations.Selection(key, end == null ? ByteString.EMPTY : end, from,
                deletesOnly, false, false), listener);
        done.whenComplete((v, e) -> watch.cancel());
        return done;
    }

    static ByteString prefixEnd(ByteString prefix) {
        byte[] end = prefix.toByteArray();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xff) {
                end[i]++;
                return ByteString.copyFrom(end, 0, i + 1);
            }
        }
        return ByteString.copyFrom(new byte[] {0});
    }
}
