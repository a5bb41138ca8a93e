package io.etcdj.server.watch;

import static io.etcdj.server.apply.StoreFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.harness.Eventually;
import io.etcdj.server.apply.StoreFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchHubTest {
    @TempDir
    Path dir;
    StoreFixture f;
    WatchHub hub;

    /** A sink that records what it gets and can pretend to be full. */
    static final class RecordingSink implements WatchSink {
        final List<Event> events = new CopyOnWriteArrayList<>();
        volatile long compactedAt;
        volatile boolean full;

        @Override
        public boolean offer(List<Event> evs, long revision) {
            if (full) {
                return false;
            }
            events.addAll(evs);
            return true;
        }

        @Override
        public void compacted(long compactRevision) {
            compactedAt = compactRevision;
        }

        List<String> keys() {
            List<String> out = new ArrayList<>();
            events.forEach(e -> out.add(e.getType() + " " + e.getKv().getKey().toStringUtf8()));
            return out;
        }
    }

    @BeforeEach
    void open() {
        f = new StoreFixture(dir);
        hub = new WatchHub(f.store);
    }

    @AfterEach
    void close() {
        hub.close();
        f.close();
    }

    /** Applies a write and hands its events to the hub, as the apply loop does. */
    private void put(String k, String v) {
        int before = f.events.size();
        f.put(k, v);
        hub.notify(new ArrayList<>(f.events.subList(before, f.events.size())));
    }

    private void del(String k) {
        int before = f.events.size();
        f.del(DeleteRangeRequest.newBuilder().setKey(bs(k)));
        hub.notify(new ArrayList<>(f.events.subList(before, f.events.size())));
    }

    private static void await(BooleanSupplier cond) throws InterruptedException {
        Eventually.until("the watch's events", Duration.ofSeconds(5), Duration.ofMillis(5),
                cond::getAsBoolean);
    }

    /**
     * A watch from a revision the member has not reached yet (a client resuming on a member that
     * is catching up) gets only events from that revision on, however many other keys change
     * before it: etcd's synced watchers keep their minimum revision.
     */
    @Test
    void aWatcherFromAFutureRevisionSkipsEarlierEventsOfItsKey() throws Exception {
        put("other", "0");
        long current = f.store.currentRevision();
        RecordingSink sink = new RecordingSink();
        hub.add(new Watcher(bs("k").toByteArray(), null, 0, false, false, false, sink), current + 3);
        put("other", "1");
        put("k", "too-early");
        put("k", "from-here");
        assertEquals(List.of("PUT k"), sink.keys());
        assertEquals("from-here", sink.events.get(0).getKv().getValue().toStringUtf8());
    }

    @Test
    void syncedWatcherGetsMatchingEventsWithFilters() throws Exception {
        RecordingSink all = new RecordingSink();
        RecordingSink noDelete = new RecordingSink();
        hub.add(new Watcher(bs("a").toByteArray(), bs("b").toByteArray(), 0, false, false, false, all), 0);
        hub.add(new Watcher(bs("a").toByteArray(), bs("b").toByteArray(), 0, false, true, false, noDelete), 0);
        put("a1", "x");
        put("zz", "y");
        del("a1");
        assertEquals(List.of("PUT a1", "DELETE a1"), all.keys());
        assertEquals(List.of("PUT a1"), noDelete.keys());
    }

    @Test
    void watcherFromHistoryCatchesUpThenFollows() throws Exception {
        put("k", "1");
        put("k", "2");
        RecordingSink sink = new RecordingSink();
        hub.add(new Watcher(bs("k").toByteArray(), null, 0, false, false, true, sink), 2);
        await(() -> sink.events.size() == 2);
        put("k", "3");
        await(() -> sink.events.size() == 3);
        assertEquals("1", sink.events.get(1).getPrevKv().getValue().toStringUtf8(), "prev_kv from history");
        assertEquals("2", sink.events.get(2).getPrevKv().getValue().toStringUtf8(), "prev_kv of a live event");
        assertEquals(List.of(2L, 3L, 4L), sink.events.stream().map(e -> e.getKv().getModRevision()).toList());
    }

    @Test
    void compactedStartIsCanceledWithCompactRevision() throws Exception {
        put("k", "1");
        put("k", "2");
        put("k", "3");
        f.compact(3);
        RecordingSink sink = new RecordingSink();
        hub.add(new Watcher(bs("k").toByteArray(), null, 0, false, false, false, sink), 1);
        await(() -> sink.compactedAt == 3);
        assertEquals(0, hub.watcherCount());
    }

    @Test
    void slowWatcherDoesNotBlockWritesAndLosesNothing() throws Exception {
        RecordingSink sink = new RecordingSink();
        sink.full = true;
        hub.add(new Watcher(bs("k").toByteArray(), bs("l").toByteArray(), 0, false, false, false, sink), 0);
        for (int i = 0; i < 50; i++) {
            put("k" + i, "v");
        }
        assertTrue(sink.events.isEmpty());
        sink.full = false;
        hub.kick();
        await(() -> sink.events.size() == 50);
        put("k-last", "v");
        await(() -> sink.events.size() == 51);
        List<Long> revs = sink.events.stream().map(e -> e.getKv().getModRevision()).toList();
        for (int i = 1; i < revs.size(); i++) {
            assertTrue(revs.get(i) > revs.get(i - 1), "events in order without duplicates: " + revs);
        }
    }
}
