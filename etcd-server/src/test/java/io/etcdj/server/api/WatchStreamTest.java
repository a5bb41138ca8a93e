package io.etcdj.server.api;

import static io.etcdj.server.apply.StoreFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.WatchCancelRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.metrics.Metrics;
import io.grpc.stub.ServerCallStreamObserver;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A watch stream as its client sees it, over a fake member: what etcd's watch server sends for
 * created, canceled and compacted watches, progress notifications, fragments and a slow client.
 */
class WatchStreamTest {
    private static final long CURRENT = 42;

    private FakeWatches member;
    private RecordingCall client;
    private WatchStream stream;

    /** The member's side: records each watch, and lets the test play the store. */
    private static final class FakeWatches implements WatchOperations {
        final List<FakeWatch> watches = new ArrayList<>();
        final List<Runnable> progressListeners = new ArrayList<>();
        int resumed;
        int maxRequestBytes = 1536;

        @Override
        public Watch watch(Selection selection, Listener listener) {
            FakeWatch w = new FakeWatch(selection, listener);
            watches.add(w);
            listener.created(CURRENT);
            return w;
        }

        @Override
        public void addProgressListener(Runnable onInterval) {
            progressListeners.add(onInterval);
        }

        @Override
        public void removeProgressListener(Runnable onInterval) {
            progressListeners.remove(onInterval);
        }

        @Override
        public void resumeCatchUp() {
            resumed++;
        }

        @Override
        public ResponseHeader header(long revision) {
            return ResponseHeader.newBuilder().setClusterId(1).setMemberId(2).setRaftTerm(3).setRevision(revision).build();
        }

        @Override
        public ResponseHeader header() {
            return header(CURRENT);
        }

        @Override
        public int maxRequestBytes() {
            return maxRequestBytes;
        }

        void tick() {
            List.copyOf(progressListeners).forEach(Runnable::run);
        }

        FakeWatch last() {
            return watches.get(watches.size() - 1);
        }
    }

    private static final class FakeWatch implements WatchOperations.Watch {
        final WatchOperations.Selection selection;
        final WatchOperations.Listener listener;
        boolean canceled;
        boolean caughtUp = true;

        FakeWatch(WatchOperations.Selection selection, WatchOperations.Listener listener) {
            this.selection = selection;
            this.listener = listener;
        }

        @Override
        public void cancel() {
            canceled = true;
        }

        @Override
        public void requestProgress() {
            if (caughtUp) {
                listener.progress();
            }
        }
    }

    /** The client's end of the call: what it received, and whether it is ready for more. */
    private static final class RecordingCall extends ServerCallStreamObserver<WatchResponse> {
        final List<WatchResponse> received = new ArrayList<>();
        boolean ready = true;
        Runnable onReady;
        Runnable onCancel;

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setOnReadyHandler(Runnable handler) {
            onReady = handler;
        }

        @Override
        public void setOnCancelHandler(Runnable handler) {
            onCancel = handler;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public void setCompression(String compression) {
        }

        @Override
        public void disableAutoInboundFlowControl() {
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void setMessageCompression(boolean enable) {
        }

        @Override
        public void onNext(WatchResponse value) {
            received.add(value);
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onCompleted() {
        }

        WatchResponse last() {
            return received.get(received.size() - 1);
        }
    }

    /** An AuthOperations that lets every watch read its range: the stream asks it nothing else. */
    private static AuthOperations readsAllowed() {
        return (AuthOperations) Proxy.newProxyInstance(AuthOperations.class.getClassLoader(), new Class<?>[] {AuthOperations.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("checkRead")) {
                        return null;
                    }
                    throw new AssertionError("a watch stream asks AuthOperations only checkRead, not " + method.getName());
                });
    }

    @BeforeEach
    void open() {
        member = new FakeWatches();
        client = new RecordingCall();
        stream = new WatchStream(member, readsAllowed(), client, new Metrics());
    }

    private void create(WatchCreateRequest.Builder c) {
        stream.onNext(WatchRequest.newBuilder().setCreateRequest(c).build());
    }

    private static WatchCreateRequest.Builder watchOf(String key) {
        return WatchCreateRequest.newBuilder().setKey(bs(key));
    }

    private static Event put(String key, int revision, int valueBytes) {
        return Event.newBuilder().setType(Event.EventType.PUT).setKv(KeyValue.newBuilder().setKey(bs(key))
                .setValue(ByteString.copyFrom(new byte[valueBytes])).setModRevision(revision).setCreateRevision(revision)
                .setVersion(1)).build();
    }

    @Test
    void aWatchIsCreatedWithItsRequestAndAnsweredAtTheRevisionItWasRegisteredAt() {
        create(watchOf("a").setRangeEnd(bs("b")).setStartRevision(7).setPrevKv(true)
                .addFilters(WatchCreateRequest.FilterType.NODELETE));
        assertEquals(new WatchOperations.Selection(bs("a"), bs("b"), 7, false, true, true), member.last().selection);
        WatchResponse created = client.last();
        assertTrue(created.getCreated());
        assertEquals(0, created.getWatchId(), "the first watch ID the stream gives out");
        assertEquals(CURRENT, created.getHeader().getRevision());
    }

    @Test
    void eventsArriveUnderTheirWatchIdAtTheirRevision() {
        create(watchOf("k").setWatchId(9));
        assertTrue(member.last().listener.events(List.of(put("k", 50, 1)), 50));
        WatchResponse r = client.last();
        assertEquals(9, r.getWatchId());
        assertEquals(50, r.getHeader().getRevision());
        assertEquals("k", r.getEvents(0).getKv().getKey().toStringUtf8());
    }

    /** etcd's sendFragments: pieces in order, every one but the last marked fragment. */
    @Test
    void aLargeResponseOfAFragmentWatchArrivesInPiecesTheClientReassembles() {
        member.maxRequestBytes = 300;
        create(watchOf("k").setRangeEnd(bs("l")).setFragment(true));
        List<Event> events = IntStream.range(0, 10).mapToObj(i -> put("k" + i, 50 + i, 100)).toList();
        int before = client.received.size();
        member.last().listener.events(events, 59);
        List<WatchResponse> pieces = client.received.subList(before, client.received.size());
        assertTrue(pieces.size() > 1, "fragmented: " + pieces.size());
        for (int i = 0; i < pieces.size(); i++) {
            assertEquals(i < pieces.size() - 1, pieces.get(i).getFragment(), "fragment flag of piece " + i);
            assertEquals(59, pieces.get(i).getHeader().getRevision());
        }
        assertEquals(events, pieces.stream().flatMap(p -> p.getEventsList().stream()).toList());
    }

    @Test
    void withoutFragmentALargeResponseArrivesWhole() {
        member.maxRequestBytes = 300;
        create(watchOf("k").setRangeEnd(bs("l")));
        List<Event> events = IntStream.range(0, 10).mapToObj(i -> put("k" + i, 50 + i, 100)).toList();
        member.last().listener.events(events, 59);
        assertEquals(events, client.last().getEventsList());
        assertFalse(client.last().getFragment());
    }

    /** etcd sends progress at each interval to the watches created with progress_notify, and only while caught up. */
    @Test
    void progressGoesToCaughtUpWatchesThatAskedForIt() {
        create(watchOf("a").setWatchId(1).setProgressNotify(true));
        create(watchOf("b").setWatchId(2));
        create(watchOf("c").setWatchId(3).setProgressNotify(true));
        member.watches.get(2).caughtUp = false;
        int before = client.received.size();
        member.tick();
        List<WatchResponse> sent = client.received.subList(before, client.received.size());
        assertEquals(1, sent.size(), "one notification: " + sent);
        assertEquals(1, sent.get(0).getWatchId());
        assertEquals(0, sent.get(0).getEventsCount());
        assertEquals(CURRENT, sent.get(0).getHeader().getRevision());
    }

    /** etcd elides a watch's next progress notification when it sent the watch events since the last one (v3rpc's sendLoop). */
    @Test
    void aWatchThatGotEventsSinceTheLastIntervalGetsNoProgressAtThisOne() {
        create(watchOf("a").setWatchId(1).setProgressNotify(true));
        create(watchOf("b").setWatchId(2).setProgressNotify(true));
        member.watches.get(0).listener.events(List.of(put("a", 60, 1)), 60);
        int before = client.received.size();
        member.tick();
        List<WatchResponse> sent = List.copyOf(client.received.subList(before, client.received.size()));
        assertEquals(List.of(2L), sent.stream().map(WatchResponse::getWatchId).toList(), "only the quiet watch: " + sent);
        before = client.received.size();
        member.tick();
        sent = List.copyOf(client.received.subList(before, client.received.size()));
        assertEquals(List.of(1L, 2L), sent.stream().map(WatchResponse::getWatchId).sorted().toList(),
                "both, once an interval passed without events: " + sent);
    }

    @Test
    void aCanceledWatchIsConfirmedAndWhatIsStillUnderWayForItIsDropped() {
        create(watchOf("k").setWatchId(5));
        FakeWatch w = member.last();
        stream.onNext(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(5)).build());
        assertTrue(w.canceled, "the member's watch is canceled");
        assertTrue(client.last().getCanceled());
        assertEquals(5, client.last().getWatchId());
        int before = client.received.size();
        assertTrue(w.listener.events(List.of(put("k", 50, 1)), 50), "taken, so the member does not retry it");
        assertEquals(before, client.received.size(), "nothing sent for a canceled watch");
    }

    /** etcd cancels a watch whose start was compacted with compact_revision and a header without revision. */
    @Test
    void aCompactedWatchIsCanceledWithTheCompactRevision() {
        create(watchOf("k").setWatchId(4).setStartRevision(2));
        member.last().listener.compacted(30);
        WatchResponse r = client.last();
        assertTrue(r.getCanceled());
        assertEquals(4, r.getWatchId());
        assertEquals(30, r.getCompactRevision());
        assertEquals(0, r.getHeader().getRevision());
        create(watchOf("k").setWatchId(4));
        assertTrue(client.last().getCreated() && !client.last().getCanceled(), "its ID is free again");
    }

    @Test
    void aLateCompactionOfACanceledWatchDoesNotEndTheWatchThatReusedItsId() {
        create(watchOf("k").setWatchId(7));
        FakeWatch old = member.last();
        stream.onNext(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(7)).build());
        create(watchOf("k").setWatchId(7));
        int before = client.received.size();
        old.listener.compacted(30);
        assertEquals(before, client.received.size(), "no cancel for watch 7: " + client.received.subList(before,
                client.received.size()));
        member.last().listener.events(List.of(put("k", 50, 1)), 50);
        assertEquals(7, client.last().getWatchId());
        assertEquals(1, client.last().getEventsCount());
    }

    /**
     * A client that reads nothing fills its stream's queue; then the stream refuses events, which
     * makes its watches fall behind (writes never wait); once the client has read them the member
     * is told so that those watches catch up.
     */
    @Test
    void aSlowClientMakesItsWatchesFallBehindNotTheMemberWait() {
        create(watchOf("k").setRangeEnd(bs("l")));
        client.ready = false;
        WatchOperations.Listener l = member.last().listener;
        int taken = 0;
        while (l.events(List.of(put("k", 100 + taken, 1)), 100 + taken)) {
            taken++;
            assertTrue(taken <= 1000, "the stream never refuses");
        }
        assertTrue(taken > 0);
        int before = client.received.size();
        client.ready = true;
        client.onReady.run();
        assertEquals(taken, client.received.size() - before, "every queued response is sent");
        assertTrue(member.resumed > 0, "the member is told to let its watches catch up");
        assertTrue(l.events(List.of(put("k", 100 + taken, 1)), 100 + taken), "room again");
    }

    @Test
    void aClosedStreamCancelsItsWatchesAndStopsItsProgressNotifications() {
        create(watchOf("a"));
        create(watchOf("b"));
        client.onCancel.run();
        assertTrue(member.watches.stream().allMatch(w -> w.canceled));
        assertTrue(member.progressListeners.isEmpty());
    }
}
