package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.harness.Eventually;
import io.etcdj.server.api.WatchOperations;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WatchOps as a watch stream sees it: watches on the member's store with etcd's semantics (start
 * revision, filters, prev_kv, compaction, progress only when caught up, slow watchers losing
 * nothing), and the headers its responses carry.
 */
class WatchOpsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private OpsFixture f;
    private WatchHub hub;
    private ProgressNotifier progress;
    private WatchOps watches;

    /** A stream's side of one watch: records what it hears, and can refuse events as a full stream does. */
    private static final class RecordingListener implements WatchOperations.Listener {
        final List<Long> created = new CopyOnWriteArrayList<>();
        final List<Event> events = new CopyOnWriteArrayList<>();
        final List<Long> compacted = new CopyOnWriteArrayList<>();
        final AtomicInteger progress = new AtomicInteger();
        volatile boolean full;

        @Override
        public void created(long revision) {
            created.add(revision);
        }

        @Override
        public boolean events(List<Event> evs, long revision) {
            if (full) {
                return false;
            }
            events.addAll(evs);
            return true;
        }

        @Override
        public void compacted(long compactRevision) {
            compacted.add(compactRevision);
        }

        @Override
        public void progress() {
            progress.incrementAndGet();
        }

        List<String> seen() {
            return events.stream().map(e -> e.getType() + " " + e.getKv().getKey().toStringUtf8() + "@" + e.getKv().getModRevision())
                    .toList();
        }
    }

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        hub = new WatchHub(f.sm.store);
        f.changes = hub::notify;
        progress = new ProgressNotifier(20);
        watches = new WatchOps(hub, progress, f.headers, 1536);
    }

    @AfterEach
    void close() {
        progress.close();
        hub.close();
        f.close();
    }

    private void put(String key, String value) {
        f.proposer.propose(InternalRaftRequest.newBuilder().setPut(PutRequest.newBuilder().setKey(bs(key)).setValue(bs(value))))
                .join();
    }

    private void delete(String key) {
        f.proposer.propose(InternalRaftRequest.newBuilder().setDeleteRange(DeleteRangeRequest.newBuilder().setKey(bs(key)))).join();
    }

    private static WatchOperations.Selection prefix(String p, long startRevision, boolean noPut, boolean prevKv) {
        return new WatchOperations.Selection(bs(p), bs(p.substring(0, p.length() - 1) + (char) (p.charAt(p.length() - 1) + 1)),
                startRevision, noPut, false, prevKv);
    }

    @Test
    void aCreatedResponseCarriesTheCurrentRevisionAndACancelNone() {
        put("k", "v");
        assertEquals(2, watches.header().getRevision());
        assertEquals(OpsFixture.MEMBER, watches.header().getMemberId());
        assertEquals(0, watches.header(0).getRevision(), "etcd's cancel responses carry no revision");
        assertEquals(OpsFixture.TERM, watches.header(0).getRaftTerm());
        assertEquals(1536, watches.maxRequestBytes(), "responses fragment at --max-request-bytes");
    }

    /** etcd: a watch without a start revision sees every change after the revision it was created at, and nothing before. */
    @Test
    void aWatchWithoutStartRevisionSeesOnlyLaterChangesOfItsRange() {
        put("a/1", "old");
        RecordingListener l = new RecordingListener();
        watches.watch(prefix("a/", 0, false, true), l);
        put("a/1", "new");
        put("b/1", "elsewhere");
        delete("a/1");
        assertEquals(List.of(2L), l.created, "created at the revision of the last write before it");
        assertEquals(List.of("PUT a/1@3", "DELETE a/1@5"), l.seen());
        assertEquals("old", l.events.get(0).getPrevKv().getValue().toStringUtf8(), "prev_kv of the put");
        assertEquals("new", l.events.get(1).getPrevKv().getValue().toStringUtf8(), "prev_kv of the delete");
    }

    @Test
    void aNoPutWatchFromHistoryGetsOnlyDeletionsThenFollows() throws Exception {
        put("a/1", "x");
        delete("a/1");
        put("a/2", "y");
        RecordingListener l = new RecordingListener();
        watches.watch(prefix("a/", 1, true, false), l);
        delete("a/2");
        Eventually.until("both deletions", PATIENCE, () -> l.events.size() == 2);
        assertEquals(List.of("DELETE a/1@3", "DELETE a/2@5"), l.seen());
    }

    /** etcd cancels a watch from a compacted revision with the compact revision, and sends it nothing else. */
    @Test
    void aWatchFromACompactedRevisionHearsTheCompactRevisionAlone() throws Exception {
        put("k", "1");
        put("k", "2");
        put("k", "3");
        f.proposer.propose(InternalRaftRequest.newBuilder().setCompaction(CompactionRequest.newBuilder().setRevision(3))).join();
        RecordingListener l = new RecordingListener();
        watches.watch(new WatchOperations.Selection(bs("k"), ByteString.EMPTY, 2, false, false, false), l);
        Eventually.until("the compaction notice", PATIENCE, () -> !l.compacted.isEmpty());
        put("k", "4");
        assertEquals(List.of(3L), l.compacted);
        assertTrue(l.events.isEmpty(), "no events after the notice: " + l.seen());
        assertEquals(0, hub.watcherCount(), "the watch has ended");
    }

    @Test
    void aCanceledWatchHearsNoMoreWrites() {
        RecordingListener l = new RecordingListener();
        WatchOperations.Watch w = watches.watch(new WatchOperations.Selection(bs("k"), ByteString.EMPTY, 0, false, false, false), l);
        put("k", "1");
        w.cancel();
        put("k", "2");
        assertEquals(List.of("PUT k@2"), l.seen());
        assertEquals(0, hub.watcherCount());
    }

    /**
     * A stream that cannot take events makes its watch fall behind; once it has room again the
     * watch catches up from history, in order and without a gap, and only then answers progress
     * requests again (etcd sends progress to synced watchers only).
     */
    @Test
    void aSlowWatchCatchesUpWithoutLossAndHasNoProgressWhileBehind() throws Exception {
        RecordingListener l = new RecordingListener();
        WatchOperations.Watch w = watches.watch(prefix("a/", 0, false, false), l);
        w.requestProgress();
        assertEquals(1, l.progress.get(), "a caught-up watch answers a progress request");
        l.full = true;
        for (int i = 0; i < 20; i++) {
            put("a/" + i, "v");
        }
        w.requestProgress();
        assertEquals(1, l.progress.get(), "no progress while the watch is behind the store");
        l.full = false;
        watches.resumeCatchUp();
        Eventually.until("the 20 events from history", PATIENCE, () -> l.events.size() == 20);
        put("a/last", "v");
        Eventually.until("the next write", PATIENCE, () -> l.events.size() == 21);
        List<Long> revisions = l.events.stream().map(e -> e.getKv().getModRevision()).toList();
        for (int i = 1; i < revisions.size(); i++) {
            assertEquals(revisions.get(i - 1) + 1, revisions.get(i), "every revision once, in order: " + revisions);
        }
        Eventually.until("caught up", PATIENCE, () -> {
            w.requestProgress();
            return l.progress.get() == 2;
        });
    }

    @Test
    void progressListenersRunAtTheIntervalUntilRemoved() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        Runnable tick = ticks::incrementAndGet;
        watches.addProgressListener(tick);
        Eventually.until("two intervals", PATIENCE, () -> ticks.get() >= 2);
        watches.removeProgressListener(tick);
        int afterRemoval = ticks.get();
        AtomicInteger other = new AtomicInteger();
        Runnable later = other::incrementAndGet;
        watches.addProgressListener(later);
        Eventually.until("two more intervals", PATIENCE, () -> other.get() >= 2);
        assertFalse(ticks.get() > afterRemoval + 1, "a removed listener runs at most once more (an interval under way)");
    }
}
